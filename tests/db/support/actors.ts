/**
 * The callers of the policy matrix. Each operation answers { rows, error } the way the data API does:
 * rows affected (or read) on success, a PostgreSQL error code on refusal.
 */
export interface ApiError {
  code: string;
  message: string;
}

export interface ApiResult {
  rows: Record<string, unknown>[];
  error: ApiError | null;
}

export interface RpcResult {
  data: unknown;
  error: ApiError | null;
}

export type Match = Record<string, string>;

export interface Actor {
  readonly name: string;
  /** The user id behind the caller (null for anon). */
  readonly userId: string | null;
  select(table: string): Promise<ApiResult>;
  insert(table: string, row: Record<string, unknown>): Promise<ApiResult>;
  /** Returns the ids of the rows actually changed. */
  update(table: string, patch: Record<string, unknown>, match: Match): Promise<ApiResult>;
  /** Returns the ids of the rows actually deleted. */
  remove(table: string, match: Match): Promise<ApiResult>;
  rpc(fn: string, args: Record<string, unknown>): Promise<RpcResult>;
}
