/**
 * The one Node API the Worker uses: AsyncLocalStorage, which workerd provides under the `nodejs_als`
 * compatibility flag. Declared here rather than through @types/node, whose globals do not describe workerd.
 */
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, fn: () => R): R;
  }
}
