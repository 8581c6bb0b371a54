import { randomBytes } from 'node:crypto';
import { badRequest, conflict } from '../contract/errors.ts';
import { isValidSlug, slugify, withSuffix } from '../core/slug.ts';

export interface SlugRequest {
  /** A slug the operator chose: used as is, or refused (400 malformed, 409 taken). */
  given?: string | undefined;
  /** The name a slug is generated from when none is given. */
  name: string;
}

/** How many numbered alternatives of a generated slug are tried before a random suffix. */
const ALTERNATIVES = 20;

/**
 * Slugs for new rows of one namespace (events or markets), unique among existing rows and among
 * themselves. `findTaken` answers which candidates the namespace already holds.
 */
export async function allocateSlugs(requests: SlugRequest[], fallback: string, findTaken: (candidates: string[]) => Promise<Set<string>>): Promise<string[]> {
  const given = requests.flatMap((r) => (r.given === undefined ? [] : [r.given]));
  for (const slug of given) if (!isValidSlug(slug)) throw badRequest(`slug "${slug}" must be lowercase letters and digits in dash-separated words`);
  if (new Set(given).size !== given.length) throw conflict('the same slug is given twice');
  const takenGiven = await findTaken(given);
  if (takenGiven.size > 0) throw conflict(`slug "${[...takenGiven][0]}" is taken`);

  const reserved = new Set(given);
  const slugs: string[] = [];
  for (const request of requests) {
    if (request.given !== undefined) {
      slugs.push(request.given);
      continue;
    }
    const base = slugify(request.name, fallback);
    const candidates = Array.from({ length: ALTERNATIVES }, (_, i) => withSuffix(base, i + 1));
    const taken = await findTaken(candidates);
    const free = candidates.find((c) => !taken.has(c) && !reserved.has(c)) ?? `${base}-${randomBytes(4).toString('hex')}`;
    reserved.add(free);
    slugs.push(free);
  }
  return slugs;
}
