/**
 * The case generators certify's rules draw from cover each class of mistake for any input, not only for the
 * test users of the corpus: drawn with fast-check, each property names the rule whose cases it holds.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { CLIENT_ADDRESS_HEADERS } from '../../../src/server/client-address-headers.js';
import { hopsIn } from '../../../src/server/forwarded-headers.js';
import { spoofForms, spoofRounds } from '../../../packages/hub-embed-mock/src/certify/address-headers.js';
import { hashOf, STRING_HASHES } from '../../../packages/hub-embed-mock/src/certify/collisions.js';
import { originClasses } from '../../../packages/hub-embed-mock/src/certify/origin-classes.js';
import { overdraws } from '../../../packages/hub-embed-mock/src/certify/receiver-rules.js';
import {
  impersonations,
  wellKnownSecret,
  WELL_KNOWN_SECRETS,
} from '../../../packages/hub-embed-mock/src/certify/session-forgeries.js';
import { hashTwinsOf, spellingTwins } from '../../../packages/hub-embed-mock/src/certify/user-classes.js';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));

test('receiver.forwarded-for-not-believed: every header, each value claiming the allowed address at one end', () => {
  fc.assert(
    fc.property(ipv4, ipv4, (allowed, stranger) => {
      fc.pre(allowed !== stranger);
      const forms = spoofForms(allowed, stranger);
      for (const header of CLIENT_ADDRESS_HEADERS)
        assert.ok(
          forms.some((form) => form.header === header),
          header,
        );
      for (const form of forms) {
        const hops = hopsIn(form.header, form.value) ?? [form.value];
        const ends = [hops[0], hops.at(-1)].map((hop) => hop?.replace(/^::ffff:/, ''));
        assert.ok(ends.includes(allowed), `${form.header}: ${form.value} names ${allowed} at neither end`);
      }
      // One request per round carries every form of it: no header twice in a round, no form left out.
      const rounds = spoofRounds(forms);
      for (const round of rounds) assert.equal(new Set(round.map((form) => form.header)).size, round.length);
      assert.equal(rounds.flat().length, forms.length);
    }),
  );
});

test('receiver.deduct-insufficient-by-fractions: whenever a whole-yuan comparison can be fooled, a generated overdraw fools it', () => {
  const wholeYuan = [Math.round, Math.floor, Math.ceil];
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10_000_000 }), (balance) => {
      const overs = overdraws(balance);
      for (const over of overs) assert.ok(over >= 1 && over <= 100, `an overdraw of ${over} cents`);
      for (const yuan of wholeYuan) {
        const passes = (over: number) => yuan(balance / 100) >= yuan((balance + over) / 100);
        // Whenever some overdraw under a yuan gets past this comparison, one of the generated ones does.
        const exploitable = Array.from({ length: 99 }, (_, index) => index + 1).some(passes);
        if (exploitable)
          assert.ok(
            overs.some(passes),
            `${yuan.name} of yuan lets none of ${overs.join(', ')} past a balance of ${balance}`,
          );
      }
    }),
  );
});

const idText = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
/** Ids as apps write them (`user-…`): long enough that replacing one never touches a field name or the encoding around it. */
const userId = idText.map((text) => `user-${text}`);

test('receiver.colliding-users-own-tokens: a twin for each wrong cache key, none equal to the id', () => {
  const wrongKeys: [string, (id: string) => string][] = [
    ['lower-cased', (id) => id.toLowerCase()],
    ['upper-cased', (id) => id.toUpperCase()],
    ['NFKC', (id) => id.normalize('NFKC')],
    ['NFKC, lower-cased', (id) => id.normalize('NFKC').toLowerCase()],
  ];
  fc.assert(
    fc.property(idText, (id) => {
      const twins = spellingTwins(id);
      assert.ok(twins.every((twin) => twin.id !== id));
      for (const [name, key] of wrongKeys)
        assert.ok(
          twins.some((twin) => key(twin.id) === key(id)),
          `no twin of ${id} shares its ${name} key`,
        );
    }),
  );
  // Meeting in the middle takes a moment per hash: a few ids, each twin checked against its hash.
  fc.assert(
    fc.property(idText, (id) => {
      const twins = hashTwinsOf(id, 'certify-x-');
      assert.equal(twins.length, STRING_HASHES.length);
      for (const [index, hash] of STRING_HASHES.entries())
        assert.equal(hashOf(hash, twins[index]!.id), hashOf(hash, id));
    }),
    { numRuns: 3 },
  );
});

test('token.tampered-session-refused: the user id inside an unsigned session is found and replaced, in any encoding', () => {
  const encodings: ((text: string) => string)[] = [
    (text) => text,
    encodeURIComponent,
    (text) => Buffer.from(text).toString('base64url'),
    (text) => Buffer.from(text).toString('base64'),
  ];
  fc.assert(
    fc.property(userId, userId, fc.integer({ min: 0, max: 3 }), (user, other, which) => {
      fc.pre(user !== other && !other.includes(user) && !user.includes(other));
      const encode = encodings[which]!;
      const cookie = `sid=${encode(JSON.stringify({ user, at: 1 }))}`;
      const forged = impersonations(`theme=dark; ${cookie}`, user, other);
      assert.ok(
        forged.some((forgery) => forgery.value === `theme=dark; sid=${encode(JSON.stringify({ user: other, at: 1 }))}`),
        `no forgery of ${cookie} names ${other}`,
      );
    }),
  );
});

test('token.tampered-session-refused: a JWT signed with a well-known secret is re-signed for another user', () => {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  fc.assert(
    fc.property(userId, userId, fc.constantFrom(...WELL_KNOWN_SECRETS), (user, other, secret) => {
      fc.pre(user !== other && !other.includes(user) && !user.includes(other));
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: user })}`;
      const jwt = `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
      assert.equal(wellKnownSecret(jwt)?.secret, secret);
      const resigned = impersonations(`Bearer ${jwt}`, user, other).find((forgery) => forgery.what.includes(secret));
      assert.ok(resigned, `no forgery signed with ${secret}`);
      const [head = '', payload = '', signature = ''] = resigned.value.slice('Bearer '.length).split('.');
      assert.equal(createHmac('sha256', secret).update(`${head}.${payload}`).digest('base64url'), signature);
      assert.equal(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).sub, other);
    }),
  );
});

test('token.origin-classes-refused: every class is another origin than the allowed one', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('http', 'https'),
      fc.domain(),
      fc.option(fc.integer({ min: 1, max: 65535 })),
      (scheme, host, port) => {
        const allowed = new URL(`${scheme}://${host}${port === null ? '' : `:${port}`}`).origin;
        const classes = originClasses(allowed);
        for (const { origin } of classes) assert.notEqual(origin, allowed);
        assert.equal(new Set(classes.map(({ origin }) => origin)).size, classes.length);
      },
    ),
  );
});
