// Row ids are generated where the rows are written: @risk/db (docs/data-access.md); re-exported for the services.
export { ID_PREFIXES, newId, newRequestId } from '@risk/db';
