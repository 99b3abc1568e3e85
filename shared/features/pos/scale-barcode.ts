// The scale-label rules live in shared/lib/scale-barcode.ts since the catalog's rule editor tests labels with them
// too (features do not import each other); the register's imports stay as they were.
export * from '../../lib/scale-barcode';
