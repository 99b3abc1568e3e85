/**
 * Logs an unexpected error by its class, code (the SQLSTATE for database errors) and message only.
 * Never the error object itself: PGlite's errors carry the failed query and its parameters, which
 * hold refresh tokens, token hashes and bcrypt hashes.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-Error value of type ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' || typeof code === 'number' ? ` ${code}` : ''}: ${error.message}`;
}

export function logUnexpected(where: string, error: unknown, log: (line: string) => void = console.error): void {
  log(`${where}: ${describeError(error)}`);
}
