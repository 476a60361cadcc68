/** The value under `key`, created with `init` and stored first when missing (a Map or WeakMap "get or insert"). */
export function getOrInsert<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  init: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = init();
    map.set(key, value);
  }
  return value;
}
