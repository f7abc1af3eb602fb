/**
 * The token-handler bench's load generator, run as its own process (child_process.fork) so that making
 * requests never competes with serving them on one event loop. Told {url, requests, users} over IPC, it
 * sends POSTs as `users` sequential clients at once over keep-alive connections, checks each answer, and
 * reports {elapsedMs, failures}.
 */
import { Agent, request } from 'node:http';

export interface LoadJob {
  url: string;
  requests: number;
  users: number;
  body: string;
}

export interface LoadResult {
  elapsedMs: number;
  failures: number;
}

function post(url: URL, agent: Agent, user: number, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          cookie: `uid=bench-${user}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { access_token?: unknown };
            resolve(res.statusCode === 200 && typeof answer.access_token === 'string');
          } catch {
            resolve(false);
          }
        });
      },
    );
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const agent = new Agent({ keepAlive: true, maxSockets: job.users });
  const perUser = Math.ceil(job.requests / job.users);
  let failures = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: job.users }, async (_, u) => {
      for (let i = 0; i < perUser && u * perUser + i < job.requests; i++) {
        if (!(await post(url, agent, u, job.body))) failures++;
      }
    }),
  );
  const elapsedMs = performance.now() - start;
  agent.destroy();
  return { elapsedMs, failures };
}

if (process.send) {
  process.on('message', (job: LoadJob) => {
    void runLoad(job).then((result) => {
      process.send!(result);
    });
  });
}
