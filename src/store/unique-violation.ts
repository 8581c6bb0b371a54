/** PostgreSQL's unique_violation: a concurrent insert took the same unique value first. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}
