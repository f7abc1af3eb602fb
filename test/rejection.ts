/** Resolves to the rejection of a promise, failing loudly if it resolved instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  let value: unknown;
  try {
    value = await promise;
  } catch (e) {
    return e;
  }
  throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
}
