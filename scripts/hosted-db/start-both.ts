/**
 * The migrations' and the schema files' hosted-shaped servers, started side by side. If one fails to start, the
 * other is stopped before the error goes on: nothing is left running.
 */
import { startHostedProject, type HostedProject } from './hosted-project';
import { startSchemaProject, type SchemaProject } from './schema-project';

export async function startBoth(): Promise<{ migrations: HostedProject; schema: SchemaProject }> {
  const [migrations, schema] = await Promise.allSettled([startHostedProject({ seed: false }), startSchemaProject()]);
  if (migrations.status === 'fulfilled' && schema.status === 'fulfilled') {
    return { migrations: migrations.value, schema: schema.value };
  }
  await Promise.all([migrations, schema].map((started) => (started.status === 'fulfilled' ? started.value.stop() : undefined)));
  throw [migrations, schema].find((started) => started.status === 'rejected')?.reason;
}
