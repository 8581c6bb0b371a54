/**
 * Values read once per page load, by key (a market's outcome names, its tick): a key is asked once
 * however many rows and views name it, and one that could not be read (a failed read, a market not
 * answered) is forgotten, to be asked again next time.
 */
export class PageReads<T> {
  private readonly known = new Map<string, Promise<T | undefined>>();

  /**
   * The values of `keys` that could be read, by key. `read` is given the keys not asked yet, all at
   * once, and answers each key's value (undefined: not read).
   */
  async of(keys: readonly (string | undefined)[], read: (missing: string[]) => Map<string, Promise<T | undefined>>): Promise<Map<string, T>> {
    const distinct = [...new Set(keys.filter((key): key is string => key !== undefined))];
    const missing = distinct.filter((key) => !this.known.has(key));
    if (missing.length > 0) {
      for (const [key, value] of read(missing)) {
        this.known.set(key, value);
        void value.then((found) => found === undefined && this.known.delete(key));
      }
    }
    const answers = await Promise.all(distinct.map(async (key): Promise<readonly [string, T | undefined]> => [key, (await this.known.get(key)) as T | undefined]));
    return new Map(answers.filter((answer): answer is readonly [string, T] => answer[1] !== undefined));
  }
}
