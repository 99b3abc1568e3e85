import { useEffect, useState } from 'react';
import { Alert, Badge, Box, Button, Checkbox, HStack, Image, Input, Link, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { downloadText } from '../../lib/download-file';
import { formatMinor } from '../../lib/money';
import { useSupabase } from '../../lib/platform-context';
import { useBusinessPacks } from '../../lib/use-business-packs';
import { fetchMainThumbnails, thumbnailUrl } from '../../lib/product-images/product-images-api';
import { catalogCsv, fetchCatalogExport } from './catalog-export';
import { CatalogError, createProduct, searchCatalog, type CatalogHit, type CatalogWorkspace, type NewProduct } from './catalog-api';
import { ImportPanel } from './import-panel';
import { LabelsSheet } from './labels-sheet';
import { ProductForm } from './product-form';
import { useCatalogCurrency } from './use-reload';

const PAGE_SIZE = 25;

/** Products and their variants, searched on the server by name, SKU or barcode, with the new-product form. */
export function ProductsPage({ business }: { business: CatalogWorkspace }) {
  const supabase = useSupabase();
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [page, setPage] = useState(0);
  const [version, setVersion] = useState(0);
  const [result, setResult] = useState<{ key: string; rows: CatalogHit[]; total: number; error: Error | null } | null>(null);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [chosen, setChosen] = useState<Record<string, CatalogHit>>({});
  const [printing, setPrinting] = useState(false);
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const canEdit = business.role === 'owner' || business.role === 'manager';
  const packs = useBusinessPacks(business.id);
  const [exporting, setExporting] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  // Prices with the stores' currency symbol (issue 25); none when the stores use several currencies. The export,
  // the import and the labels wait for it: before it is known, amounts would have two places whatever the currency.
  const [currencyState, reloadCurrency] = useCatalogCurrency(business.id);
  const currency = currencyState.status === 'ready' ? currencyState.data : null;
  const currencyKnown = currencyState.status === 'ready';
  const key = `${business.id}|${debounced}|${page}|${version}|${showArchived}`;

  useEffect(() => {
    const timer = setTimeout(() => {
      setDebounced(query.trim());
      setPage(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    let cancelled = false;
    searchCatalog(supabase, business.id, debounced, page, PAGE_SIZE, showArchived).then(
      ({ rows, total }) => !cancelled && setResult({ key, rows, total, error: null }),
      (error: unknown) => !cancelled && setResult({ key, rows: [], total: 0, error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      cancelled = true;
    };
  }, [supabase, business.id, debounced, page, key, showArchived]);

  // The page's pictures: the small previews only (docs/adr/0320), asked once the rows are known.
  const [thumbs, setThumbs] = useState<{ key: string; paths: Map<string, string> } | null>(null);
  const rowsKey = result?.key === key && !result.error ? key : null;
  useEffect(() => {
    if (!rowsKey || !result) return;
    let cancelled = false;
    fetchMainThumbnails(supabase, result.rows.map((row) => row.product_id)).then(
      (paths) => !cancelled && setThumbs({ key: rowsKey, paths }), () => undefined);
    return () => {
      cancelled = true;
    };
  }, [supabase, rowsKey, result]);
  const thumbOf = (productId: string) => (thumbs?.key === key ? thumbs.paths.get(productId) : undefined);

  const create = async (product: NewProduct) => {
    try {
      await createProduct(supabase, business.id, product);
      notify.success('Product created', product.name);
      setCreating(false);
      setVersion((v) => v + 1);
    } catch (error) {
      if (error instanceof CatalogError && error.code === 'SW001') {
        setLimitMessage(`${error.message}. ${error.hint ?? ''}`.trim());
        setCreating(false);
      } else {
        notify.error('Product not created', error instanceof Error ? error.message : 'Please try again.');
      }
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const csv = catalogCsv(await fetchCatalogExport(supabase, business.id, canEdit), canEdit, currency);
      downloadText(`catalog-${new Date().toISOString().slice(0, 10)}.csv`, csv);
    } catch (error) {
      notify.error('Catalog not exported', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setExporting(false);
    }
  };

  const loaded = result?.key === key ? result : null;
  return (
    <Stack gap="4">
      <HStack gap="3" wrap="wrap">
        <Input maxW="md" type="search" placeholder="Search by name, SKU or barcode" aria-label="Search products"
          value={query} onChange={(e) => setQuery(e.target.value)} />
        {canEdit && !creating && <Button onClick={() => setCreating(true)}>New product</Button>}
        {canEdit && <Button variant="outline" onClick={() => setImporting(!importing)}>Import CSV</Button>}
        <Button variant="outline" loading={exporting} disabled={!currencyKnown} onClick={() => void exportCsv()}>Export CSV</Button>
        {packs?.includes('size_grid') && <Button asChild variant="outline"><RouterLink to="/dashboard/catalog/collections">Collections</RouterLink></Button>}
        {packs?.includes('scale_barcodes') && <Button asChild variant="outline"><RouterLink to="/dashboard/catalog/scale-rules">Scale rules</RouterLink></Button>}
        <Button variant="outline" disabled={Object.keys(chosen).length === 0 || !currencyKnown} onClick={() => setPrinting(true)}>
          Labels ({Object.keys(chosen).length})
        </Button>
        <Checkbox.Root size="sm" checked={showArchived} onCheckedChange={(e) => {
          setShowArchived(Boolean(e.checked));
          setPage(0);
        }}>
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Show archived</Checkbox.Label>
        </Checkbox.Root>
        {business.max_products !== null && (
          <Text fontSize="sm" color="fg.muted">The {business.plan} plan allows {business.max_products} items (each size or colour you sell counts as one).</Text>
        )}
      </HStack>
      {currencyState.status === 'error' && (
        <LoadError message="The catalog's currency could not be loaded: export, import and labels wait for it."
          error={currencyState.error} onRetry={reloadCurrency} />
      )}
      {limitMessage && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Product limit reached</Alert.Title>
            <Alert.Description>{limitMessage}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {printing && <LabelsSheet items={Object.values(chosen)} currency={currency} onClose={() => setPrinting(false)} />}
      {importing && <ImportPanel business={business} currency={currencyKnown ? currency : undefined} onImported={() => setVersion((v) => v + 1)} />}
      {creating && <ProductForm onSubmit={create} onCancel={() => setCreating(false)} sizeGrid={packs?.includes('size_grid') ?? false} />}
      {!loaded ? <LoadingText /> : loaded.error ? (
        <LoadError message="Products could not be loaded." error={loaded.error} onRetry={() => setVersion((v) => v + 1)} />
      ) : loaded.rows.length === 0 ? (
        <Text color="fg.muted">{debounced ? `Nothing matches "${debounced}".` : 'No products yet.'}</Text>
      ) : (
        <>
          <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-label="Products">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader w="8">
                  {/* Every item on this page at once, for a sheet of labels (issue 25). */}
                  <Checkbox.Root size="sm" checked={loaded.rows.length > 0 && loaded.rows.every((r) => chosen[r.variant_id])}
                    onCheckedChange={(e) => {
                      const next = { ...chosen };
                      for (const r of loaded.rows) {
                        if (e.checked) next[r.variant_id] = r;
                        else delete next[r.variant_id];
                      }
                      setChosen(next);
                    }}>
                    <Checkbox.HiddenInput aria-label="Labels for every item on this page" />
                    <Checkbox.Control />
                  </Checkbox.Root>
                </Table.ColumnHeader>
                <Table.ColumnHeader w="12"><Box srOnly>Picture</Box></Table.ColumnHeader>
                <Table.ColumnHeader>Product</Table.ColumnHeader>
                <Table.ColumnHeader>Variant</Table.ColumnHeader>
                <Table.ColumnHeader>SKU</Table.ColumnHeader>
                <Table.ColumnHeader>Barcode</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Price</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {loaded.rows.map((row) => (
                <Table.Row key={row.variant_id}>
                  <Table.Cell>
                    <Checkbox.Root size="sm" checked={Boolean(chosen[row.variant_id])} onCheckedChange={(e) => {
                      const next = { ...chosen };
                      if (e.checked) next[row.variant_id] = row;
                      else delete next[row.variant_id];
                      setChosen(next);
                    }}>
                      <Checkbox.HiddenInput aria-label={`Label for ${row.sku}`} />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.Cell>
                  <Table.Cell py="1">
                    {thumbOf(row.product_id)
                      ? <Image src={thumbnailUrl(supabase, thumbOf(row.product_id)!)} alt="" w="10" h="10" objectFit="contain" rounded="sm"
                          loading="lazy" data-testid="catalog-thumb" />
                      : <Box w="10" h="10" />}
                  </Table.Cell>
                  <Table.Cell>
                    {canEdit ? (
                      <Link asChild color="blue.fg"><RouterLink to={`/dashboard/catalog/products/${row.product_id}`}>{row.product_name}</RouterLink></Link>
                    ) : row.product_name} {row.archived && <Badge size="sm" colorPalette="gray">archived</Badge>} {row.has_lots && <Badge size="sm">lots</Badge>} {row.unit === 'kg' && <Badge size="sm">kg</Badge>}
                  </Table.Cell>
                  <Table.Cell>{[row.option1, row.option2, row.option3].filter(Boolean).join(' / ') || '-'}</Table.Cell>
                  <Table.Cell fontFamily="mono">{row.sku}</Table.Cell>
                  <Table.Cell fontFamily="mono">{row.barcode ?? '-'}</Table.Cell>
                  <Table.Cell textAlign="end">{formatMinor(row.price, currency)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          </Table.ScrollArea>
          <HStack justify="space-between">
            <Text fontSize="sm" color="fg.muted">{loaded.total} variant{loaded.total === 1 ? '' : 's'}</Text>
            <HStack>
              <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</Button>
              <Button size="sm" variant="outline" disabled={(page + 1) * PAGE_SIZE >= loaded.total} onClick={() => setPage(page + 1)}>Next</Button>
            </HStack>
          </HStack>
        </>
      )}
    </Stack>
  );
}
