// @ts-check
// Notification events, kept per user so the points page can show them. Same SQL on PGlite and Postgres.
import { buildNotificationLink } from 'hub-embed/core';

/** @typedef {import('./database.js').Database} Database */
/** @typedef {{ title: string, content: string, linkUrl: string, event: string, receivedAt: string }} InboxMessage */

/** @param {Database} db */
export async function createInbox(db) {
  await db.exec(`
    CREATE TABLE IF NOT EXISTS inbox (
      id bigserial PRIMARY KEY,
      client_user_id text NOT NULL,
      event text NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      link_url text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS inbox_by_user ON inbox (client_user_id, id DESC);
  `);
  return {
    /** @param {string} clientUserId @param {string} event @param {{ title: string, content: string, linkUrl: string }} notification */
    async add(clientUserId, event, { title, content, linkUrl }) {
      await db.query(
        `INSERT INTO inbox (client_user_id, event, title, content, link_url) VALUES ($1, $2, $3, $4, $5)`,
        [clientUserId, event, title, content, linkUrl],
      );
    },
    /** @param {string} clientUserId @param {number} [limit] @returns {Promise<InboxMessage[]>} */
    async latest(clientUserId, limit = 10) {
      const { rows } = await db.query(
        `SELECT event, title, content, link_url, received_at FROM inbox WHERE client_user_id = $1 ORDER BY id DESC LIMIT $2`,
        [clientUserId, limit],
      );
      return rows.map((row) => ({
        event: String(row.event),
        title: String(row.title),
        content: String(row.content),
        linkUrl: String(row.link_url),
        receivedAt: new Date(/** @type {string | Date} */ (row.received_at)).toISOString(),
      }));
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof createInbox>>} Inbox */

/**
 * The messages with their full links, built by the spec's rule (form site root + link_url + the user's
 * token) when they are shown, so each carries a token that has not expired. One exchange per call. A
 * stored link_url the rule refuses (a dot segment, another host) gives that message no link and says why
 * in `linkError`: one bad message never takes the user's page down with it.
 * @param {InboxMessage[]} messages
 * @param {{ formUrl: string, token: () => Promise<string> }} site
 * @returns {Promise<Array<InboxMessage & { link: string | null, linkError?: string }>>}
 */
export async function withLinks(messages, site) {
  if (messages.length === 0) return [];
  const token = await site.token();
  return messages.map((message) => {
    try {
      return { ...message, link: buildNotificationLink(site.formUrl, message.linkUrl, token) };
    } catch (error) {
      // HubError messages name the link_url, never the token.
      return {
        ...message,
        link: null,
        linkError: error instanceof Error ? error.message : 'This link cannot be opened.',
      };
    }
  });
}
