-- device_label and location_label only serve the auth.sessions triggers (which run as their owner), yet
-- they kept PostgreSQL's default EXECUTE for PUBLIC, so anon could call them through /rest/v1/rpc.
-- Nothing outside the database needs them: only the owner may run them, like every other helper here.
revoke all on function public.device_label(text) from public, anon, authenticated;
revoke all on function public.location_label(inet) from public, anon, authenticated;
