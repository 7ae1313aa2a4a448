/** Rejects with `message` when `promise` has not settled within `ms`; the timer never outlives the race. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    void promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
