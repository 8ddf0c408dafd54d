import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// `.openapi(...)` metadata on every schema: import `z` from here inside this package.
extendZodWithOpenApi(z);
export { z };
