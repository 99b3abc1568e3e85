import type { ColumnInfo, FunctionInfo, RelationInfo, SchemaInfo } from './introspect';

/**
 * Renders the schema as `supabase gen types typescript` does (same shape and helper types, so code and
 * docs written for the CLI's output apply), with a fixed layout of our own: sorted by code point, two
 * spaces, no semicolons. One deliberate difference: network and interval types are typed `string`
 * (the data API sends them as JSON strings) where the CLI says `unknown`.
 */

/** PostgREST major version the local stack and hosted Supabase speak; decides postgrest-js features. */
const postgrestVersion = '12';

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const key = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

const numberTypes = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const stringTypes = new Set([
  'bytea', 'bpchar', 'varchar', 'date', 'text', 'citext', 'time', 'timetz', 'timestamp', 'timestamptz', 'uuid',
  'vector', 'name', 'char', 'inet', 'cidr', 'macaddr', 'macaddr8', 'interval', 'tsvector',
]);

function tsType(type: string, typeSchema: string, schema: SchemaInfo): string {
  if (type === 'bool') return 'boolean';
  if (numberTypes.has(type)) return 'number';
  if (stringTypes.has(type)) return 'string';
  if (type === 'json' || type === 'jsonb') return 'Json';
  if (type === 'void') return 'undefined';
  if (type === 'record') return 'Record<string, unknown>';
  if (type.startsWith('_')) {
    const element = tsType(type.slice(1), typeSchema, schema);
    return /^\w+$/.test(element) ? `${element}[]` : `(${element})[]`;
  }
  if (typeSchema === schema.name) {
    const ref = `Database[${JSON.stringify(schema.name)}]`;
    if (schema.enums.some((e) => e.name === type)) return `${ref}["Enums"][${JSON.stringify(type)}]`;
    if (schema.compositeTypes.some((c) => c.name === type)) return `${ref}["CompositeTypes"][${JSON.stringify(type)}]`;
    const relation = schema.relations.find((r) => r.name === type);
    if (relation) {
      const group = relation.kind === 'table' ? 'Tables' : 'Views';
      return `${ref}["${group}"][${JSON.stringify(type)}]["Row"]`;
    }
  }
  return 'unknown';
}

/** A tiny indenting writer: each call adds one line at the current depth. */
class Writer {
  private readonly lines: string[] = [];
  private depth = 0;
  line(text = ''): this {
    this.lines.push(text === '' ? '' : '  '.repeat(this.depth) + text);
    return this;
  }
  open(text: string): this {
    this.line(text);
    this.depth += 1;
    return this;
  }
  close(text = '}'): this {
    this.depth -= 1;
    return this.line(text);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}

const colType = (c: ColumnInfo, s: SchemaInfo) => tsType(c.type, c.typeSchema, s) + (c.nullable ? ' | null' : '');
const readOnly = (c: ColumnInfo) => c.identity === 'a' || c.generated;

function writeRowObject(w: Writer, label: string, columns: ColumnInfo[], schema: SchemaInfo): void {
  w.open(`${label}: {`);
  for (const c of columns) w.line(`${key(c.name)}: ${colType(c, schema)}`);
  w.close();
}

function writeRelationships(w: Writer, relation: RelationInfo): void {
  const rels = [...relation.relationships].sort(
    (a, b) => byCodePoint(a.foreignKeyName, b.foreignKeyName) || byCodePoint(a.referencedRelation, b.referencedRelation),
  );
  if (rels.length === 0) {
    w.line('Relationships: []');
    return;
  }
  w.open('Relationships: [');
  for (const r of rels) {
    w.open('{');
    w.line(`foreignKeyName: ${JSON.stringify(r.foreignKeyName)}`);
    w.line(`columns: ${JSON.stringify(r.columns).replaceAll(',', ', ')}`);
    w.line(`isOneToOne: ${String(r.isOneToOne)}`);
    w.line(`referencedRelation: ${JSON.stringify(r.referencedRelation)}`);
    w.line(`referencedColumns: ${JSON.stringify(r.referencedColumns).replaceAll(',', ', ')}`);
    w.close('},');
  }
  w.close(']');
}

function writeRelation(w: Writer, relation: RelationInfo, schema: SchemaInfo): void {
  const columns = [...relation.columns].sort((a, b) => byCodePoint(a.name, b.name));
  w.open(`${key(relation.name)}: {`);
  writeRowObject(w, 'Row', columns, schema);
  const writable = relation.kind === 'table' || relation.updatable;
  if (writable) {
    w.open('Insert: {');
    for (const c of columns) {
      if (readOnly(c) || (relation.kind === 'view' && !c.updatable)) w.line(`${key(c.name)}?: never`);
      else {
        const optional = c.nullable || c.hasDefault || c.identity !== '' || relation.kind === 'view';
        w.line(`${key(c.name)}${optional ? '?' : ''}: ${colType(c, schema)}`);
      }
    }
    w.close();
    w.open('Update: {');
    for (const c of columns) {
      if (readOnly(c) || (relation.kind === 'view' && !c.updatable)) w.line(`${key(c.name)}?: never`);
      else w.line(`${key(c.name)}?: ${colType(c, schema)}`);
    }
    w.close();
  }
  writeRelationships(w, relation);
  w.close();
}

const inputModes = new Set(['i', 'b', 'v']);

/** Like the CLI: callable by name only when every input argument is named (or there is a single one). */
function callableByName(fn: FunctionInfo): boolean {
  const inputs = fn.args.filter((a) => inputModes.has(a.mode));
  return inputs.every((a) => a.name !== '') || inputs.length === 1;
}

function argsType(fn: FunctionInfo, schema: SchemaInfo): string {
  const inputs = fn.args.filter((a) => inputModes.has(a.mode));
  if (inputs.length === 0) return 'never';
  const firstDefault = inputs.length - fn.argDefaults;
  const parts = inputs.map(
    (a, i) => `${key(a.name)}${i >= firstDefault ? '?' : ''}: ${tsType(a.type, a.typeSchema, schema)}`,
  );
  return `{ ${parts.join('; ')} }`;
}

function writeReturns(w: Writer, fn: FunctionInfo, schema: SchemaInfo): void {
  const set = fn.returnsSet ? '[]' : '';
  const tableColumns = fn.args.filter((a) => a.mode === 't');
  if (tableColumns.length > 0) {
    w.open('Returns: {');
    for (const a of tableColumns) w.line(`${key(a.name)}: ${tsType(a.type, a.typeSchema, schema)}`);
    w.close(`}${set}`);
    return;
  }
  const relation = fn.returnsRelation ? schema.relations.find((r) => r.name === fn.returnsRelation) : undefined;
  if (relation) {
    w.open('Returns: {');
    for (const c of [...relation.columns].sort((a, b) => byCodePoint(a.name, b.name))) {
      w.line(`${key(c.name)}: ${colType(c, schema)}`);
    }
    w.close(`}${set}`);
    return;
  }
  w.line(`Returns: ${tsType(fn.returnType, fn.returnTypeSchema, schema)}${set}`);
}

function writeSchema(w: Writer, schema: SchemaInfo): void {
  const never = '[_ in never]: never';
  const tables = schema.relations.filter((r) => r.kind === 'table').sort((a, b) => byCodePoint(a.name, b.name));
  const views = schema.relations.filter((r) => r.kind === 'view').sort((a, b) => byCodePoint(a.name, b.name));
  const functions = schema.functions
    .filter(callableByName)
    .sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.signature, b.signature));
  const functionNames = [...new Set(functions.map((f) => f.name))];
  const enums = [...schema.enums].sort((a, b) => byCodePoint(a.name, b.name));
  const composites = [...schema.compositeTypes].sort((a, b) => byCodePoint(a.name, b.name));

  w.open(`${key(schema.name)}: {`);
  w.open('Tables: {');
  if (tables.length === 0) w.line(never);
  for (const t of tables) writeRelation(w, t, schema);
  w.close();
  w.open('Views: {');
  if (views.length === 0) w.line(never);
  for (const v of views) writeRelation(w, v, schema);
  w.close();
  w.open('Functions: {');
  if (functionNames.length === 0) w.line(never);
  for (const name of functionNames) {
    const overloads = functions.filter((f) => f.name === name);
    const first = overloads[0];
    if (!first) continue;
    w.open(`${key(name)}: {`);
    w.line(`Args: ${overloads.map((f) => argsType(f, schema)).join(' | ')}`);
    // Overloads share one return type in the data API, as in the CLI's output.
    writeReturns(w, first, schema);
    w.close();
  }
  w.close();
  w.open('Enums: {');
  if (enums.length === 0) w.line(never);
  for (const e of enums) w.line(`${key(e.name)}: ${e.values.map((v) => JSON.stringify(v)).join(' | ')}`);
  w.close();
  w.open('CompositeTypes: {');
  if (composites.length === 0) w.line(never);
  for (const c of composites) {
    w.open(`${key(c.name)}: {`);
    for (const a of c.attributes) w.line(`${key(a.name)}: ${tsType(a.type, a.typeSchema, schema)} | null`);
    w.close();
  }
  w.close();
  w.close();
}

// The helper types exactly as the CLI emits them (they do not depend on the schema).
const helperTypes = `type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never`;

/** The whole file, header to Constants, ending with one newline. */
export function renderDatabaseTypes(schemas: SchemaInfo[]): string {
  const sorted = [...schemas].sort((a, b) => byCodePoint(a.name, b.name));
  const w = new Writer();
  w.line('// Generated by scripts/gen-types.ts from supabase/migrations: do not edit by hand.');
  w.line('// Regenerate with `npm run types:gen`; tests/db/types-fresh.test.ts fails when this file is stale.');
  w.line();
  w.line('export type Json =');
  w.line('  | string');
  w.line('  | number');
  w.line('  | boolean');
  w.line('  | null');
  w.line('  | { [key: string]: Json | undefined }');
  w.line('  | Json[]');
  w.line();
  w.open('export type Database = {');
  w.line('// Lets createClient<Database>() pick the PostgREST version without a second type argument.');
  w.open('__InternalSupabase: {');
  w.line(`PostgrestVersion: ${JSON.stringify(postgrestVersion)}`);
  w.close();
  for (const schema of sorted) writeSchema(w, schema);
  w.close();
  w.line();
  w.line(helperTypes);
  w.line();
  w.open('export const Constants = {');
  for (const schema of sorted) {
    const enums = [...schema.enums].sort((a, b) => byCodePoint(a.name, b.name));
    if (enums.length === 0) {
      w.line(`${key(schema.name)}: {`);
      w.line('  Enums: {},');
      w.line('},');
      continue;
    }
    w.open(`${key(schema.name)}: {`);
    w.open('Enums: {');
    for (const e of enums) w.line(`${key(e.name)}: [${e.values.map((v) => JSON.stringify(v)).join(', ')}],`);
    w.close('},');
    w.close('},');
  }
  w.close('} as const');
  return `${w.toString()}\n`;
}
