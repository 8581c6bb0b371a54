/**
 * URL slugs of events, markets and tags: lowercase ASCII letters and digits in dash-separated
 * words. Generated slugs come from names; a clash is resolved by the caller with `withSuffix`.
 */
export const MAX_SLUG_LENGTH = 120;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** True for a well-formed slug of at most MAX_SLUG_LENGTH characters. */
export function isValidSlug(slug: string): boolean {
  return slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug);
}

/**
 * The slug of a name: accents dropped, anything else that is not a letter or digit becomes a
 * dash, cut to leave room for a suffix. A name with no usable character gives `fallback`.
 */
export function slugify(name: string, fallback: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = words.slice(0, MAX_SLUG_LENGTH - 10).replace(/-+$/, '');
  return cut === '' ? fallback : cut;
}

/** The n-th alternative of a taken slug: ("will-it-rain", 2) → "will-it-rain-2". */
export function withSuffix(slug: string, n: number): string {
  return n <= 1 ? slug : `${slug}-${n}`;
}
