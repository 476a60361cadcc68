/** The value under `key`, created with `init` and stored first when missing (a Map "get or insert"). */
export function getOrInsert<K, V>(map: Map<K, V>, key: K, init: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = init();
    map.set(key, value);
  }
  return value;
}
