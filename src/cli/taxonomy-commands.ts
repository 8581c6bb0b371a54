import type { Command } from 'commander';
import type { ExchangeClient } from '../client/index.ts';
import { examples, output, printTable } from './output.ts';
import { CliError, clientFor, count, globals, run } from './sdk-client.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Category and tag references as the operator types them: an id as is, otherwise a category's
 * name (case-insensitive) or a tag's slug, looked up in the operator's lists. Unknown or
 * ambiguous names are refused locally, before anything is created.
 */
export async function resolveTaxonomy(client: ExchangeClient, refs: { categories: string[]; tags: string[] }): Promise<{ categories: string[]; tags: string[] }> {
  const byName = refs.categories.some((r) => !UUID.test(r)) ? await client.admin.categories() : [];
  const bySlug = refs.tags.some((r) => !UUID.test(r)) ? await client.admin.tags() : [];
  const categories = refs.categories.map((ref) => {
    if (UUID.test(ref)) return ref;
    const found = byName.filter((c) => c.name.toLowerCase() === ref.toLowerCase());
    if (found.length !== 1) throw new CliError(found.length ? `${found.length} categories are named "${ref}": give its id` : `no category is named "${ref}" (see pmx categories list)`);
    return found[0]!.id;
  });
  const tags = refs.tags.map((ref) => {
    if (UUID.test(ref)) return ref;
    const found = bySlug.find((t) => t.slug === ref);
    if (!found) throw new CliError(`no tag has the slug "${ref}" (see pmx tags list)`);
    return found.id;
  });
  return { categories, tags };
}

/** The operator's categories and tags (EXTENSIONS.md section 3 and the admin lists). */
export function registerTaxonomyCommands(program: Command): void {
  const categories = program.command('categories').description('list and create categories (admin)')
    .addHelpText('after', examples(['pmx categories list', 'pmx categories create Politics --position 2']));

  categories.command('list').description('every category, by position then name, inactive ones included')
    .addHelpText('after', examples(['pmx categories list', 'pmx categories list --json | jq ".[].id"']))
    .action(run(async (_options: unknown, command: Command) => {
      const rows = await clientFor(command, 'admin').admin.categories();
      output(!!globals(command).json, rows, () => printTable(rows, ['id', 'name', 'position', 'active']));
    }));

  categories.command('create <name>').description('create a category')
    .option('--position <n>', 'sort position (lower first)', '0')
    .option('--inactive', 'create it inactive')
    .addHelpText('after', examples(['pmx categories create Sports', 'pmx categories create Crypto --position 1 --json']))
    .action(run(async (name: string, options: { position: string; inactive?: boolean }, command: Command) => {
      const position = count('--position', options.position);
      const category = await clientFor(command, 'admin').admin.createCategory({ name, position, ...(options.inactive ? { active: false } : {}) });
      output(!!globals(command).json, category, () => console.log(`category ${category.id} "${category.name}" (position ${category.position}${category.active ? '' : ', inactive'})`));
    }));

  const tags = program.command('tags').description('list and create tags (admin)')
    .addHelpText('after', examples(['pmx tags list', 'pmx tags create bitcoin Bitcoin']));

  tags.command('list').description('every tag, by slug')
    .addHelpText('after', examples(['pmx tags list', 'pmx tags list --json']))
    .action(run(async (_options: unknown, command: Command) => {
      const rows = await clientFor(command, 'admin').admin.tags();
      output(!!globals(command).json, rows, () => printTable(rows, ['id', 'slug', 'label', 'type']));
    }));

  tags.command('create <slug> <label>').description('create a tag (slugs are unique: lower-case letters, digits and dashes)')
    .option('--type <type>', 'what kind of tag', 'topic')
    .addHelpText('after', examples(['pmx tags create bitcoin Bitcoin', 'pmx tags create us-politics "US politics" --type region --json']))
    .action(run(async (slug: string, label: string, options: { type: string }, command: Command) => {
      const tag = await clientFor(command, 'admin').admin.createTag({ slug, label, type: options.type });
      output(!!globals(command).json, tag, () => console.log(`tag ${tag.id} ${tag.slug} "${tag.label}" (${tag.type})`));
    }));
}
