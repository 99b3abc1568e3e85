import { describe, expect, it } from 'vitest';
import { tidyPolicy } from './tidy-policy';

describe('tidyPolicy', () => {
  it('writes a deparsed policy back as people write it', () => {
    const deparsed = `create policy "p" on public.t for select to authenticated
  using ((((business_id in ( select private.my_full_access_business_ids() as my_full_access_business_ids)) or (store_id in ( select private.my_listed_store_ids() as my_listed_store_ids))) and (business_id in ( select private.my_business_ids(array['owner'::text, 'manager'::text]) as my_business_ids))));`;
    expect(tidyPolicy(deparsed)).toBe(`create policy "p" on public.t for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids())) or (store_id in (select private.my_listed_store_ids()))) and (business_id in (select private.my_business_ids(array['owner', 'manager']))));`);
  });

  it('leaves an alias that is not the function name alone', () => {
    const text = `create policy "p" on public.t for select to authenticated\n  using ((id in ( select f.x as y from f)));`;
    expect(tidyPolicy(text)).toBe(`create policy "p" on public.t for select to authenticated\n  using (id in ( select f.x as y from f));`);
  });
});
