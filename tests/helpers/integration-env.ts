/** Setup file of the integration project: points openDb at the run's shared PGlite templates. */
import { inject } from 'vitest';
import { SHARED_TEMPLATES_ENV } from '../../supabase/local/db/open-db';

process.env[SHARED_TEMPLATES_ENV] = inject('pgliteTemplates');
