/**
 * `work`'s outcome, or `late()`'s once `timeoutMs` have passed without one (a throw from `late` rejects):
 * the one bound the server's waits share. The timer never outlives the race.
 */
export async function within<T, L>(work: Promise<T>, timeoutMs: number, late: () => L): Promise<T | L> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<L>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
