/**
 * The one table of client-address headers the grader spoofs: every header a proxy, load balancer, CDN or
 * application server sets to name the client, each with every shape its value takes. A receiver that reads
 * any of them from a peer it does not trust as a proxy lets a stranger in by writing it.
 */
// The toolkit's own list (what its receiver cross-checks) is the start: certify must cover at least that.
import { CLIENT_ADDRESS_HEADERS } from '../../../../src/server/client-address-headers.js';

/**
 * Headers the toolkit's list leaves out, set by vendors' servers and proxies: WebLogic's plug-in,
 * Apache's mod_proxy on some builds, Tencent Cloud and Huawei Cloud CDNs, Akamai, Azure Front Door.
 */
const VENDOR_HEADERS = [
  'wl-proxy-client-ip', // Oracle WebLogic's proxy plug-in
  'proxy-client-ip', // WebLogic and Apache mod_proxy set-ups
  'x-proxyuser-ip', // Google Cloud's proxies
  'x-original-client-ip',
  'x-real-client-ip',
  'x-remote-ip',
  'x-remote-addr',
  'x-host-ip',
  'x-forwarded-client-ip',
  'x-azure-clientip', // Azure Front Door
  'x-azure-socketip',
  'akamai-client-ip',
  'x-akamai-edgescape',
  'eo-connecting-ip', // Tencent Cloud EdgeOne
  'cdn-real-ip', // Huawei Cloud CDN and others
  'x-cdn-src-ip',
  'x-true-ip',
  'x-client-real-ip',
  'remote-addr',
] as const;

/**
 * Whether a header lists hops, client first (X-Forwarded-For's shape, and the copies and variants named
 * after it). By the name's form: certify spells none of the toolkit's headers (one list, theirs).
 */
const isChain = (header: string) => header !== 'forwarded' && /(^|-)forwarded(-for)?$/.test(header);

export interface SpoofForm {
  header: string;
  value: string;
  /** What the value claims, for a report: "the left-most of a chain", "alone". */
  shape: string;
}

/**
 * Every (header, value) a stranger at `stranger` can send to claim `allowed`: the address alone; in a chain,
 * left-most (what a proxy leaves after appending the stranger) and right-most; RFC 7239's `for=` with a port
 * and quoted; and as an IPv4-mapped IPv6 address. Generated per header from its shape, not listed per mistake.
 */
export function spoofForms(allowed: string, stranger: string): SpoofForm[] {
  const out: SpoofForm[] = [];
  for (const header of [...CLIENT_ADDRESS_HEADERS, ...VENDOR_HEADERS]) {
    if (header === 'forwarded') {
      out.push(
        { header, value: `for=${allowed}`, shape: 'alone' },
        {
          header,
          value: `for="${allowed}:4711";proto=https, for=${stranger}`,
          shape: 'the left-most element, quoted with a port',
        },
        { header, value: `for=${stranger}, for=${allowed}`, shape: 'the right-most element' },
      );
      continue;
    }
    out.push({ header, value: allowed, shape: 'alone' }, { header, value: `::ffff:${allowed}`, shape: 'IPv4-mapped' });
    if (isChain(header))
      out.push(
        { header, value: `${allowed}, ${stranger}`, shape: 'the left-most of a chain' },
        { header, value: `${stranger}, ${allowed}`, shape: 'the right-most of a chain' },
      );
  }
  return out;
}

/**
 * The forms in rounds where each header appears once, so one request per round carries them all; a
 * round whose answer differs from the stranger's plain one is then sent form by form to name the one believed.
 */
export function spoofRounds(forms: readonly SpoofForm[]): SpoofForm[][] {
  const rounds: SpoofForm[][] = [];
  for (const form of forms) {
    const round = rounds.find((candidate) => candidate.every((other) => other.header !== form.header));
    if (round) round.push(form);
    else rounds.push([form]);
  }
  return rounds;
}

export const SPOOFED_HEADER_COUNT = CLIENT_ADDRESS_HEADERS.length + VENDOR_HEADERS.length;
