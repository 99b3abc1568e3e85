import { Alert, Badge, Box, Button, Heading, HStack, IconButton, Link, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuX } from 'react-icons/lu';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { useBusinessPacks } from '../../lib/use-business-packs';
import { CatalogError, type CatalogWorkspace } from './catalog-api';
import {
  addBarcode, addInternalBarcode, deleteProduct, fetchProductDetail, removeBarcode, removeStorePrice, setArchived, setStorePrice,
  updateProduct, updateVariant, type Variant,
} from './product-edit-api';
import { ProductCollectionField } from './product-collection-field';
import { ProductImagesCard } from './product-images-card';
import { ProductPharmacyField } from './product-pharmacy-field';
import { BarcodeAdder, ProductDetailsForm, StorePriceForm, VariantEditForm } from './product-edit-forms';
import { formatPlain, useReload } from './use-reload';
import { ProductStock } from './product-stock';
import { toMinorUnits } from './variant-grid';

const message = (error: unknown) => {
  const text = error instanceof Error ? error.message : 'Please try again.';
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const optionsOf = (v: Variant) => [v.option1, v.option2, v.option3].filter(Boolean).join(' / ') || 'Default';

/** Editing one product: details, each variant's SKU, price, cost and barcodes, store prices, archive or delete. */
export function ProductEditPage({ business }: { business: CatalogWorkspace }) {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { productId = '' } = useParams();
  const canEdit = business.role === 'owner' || business.role === 'manager';
  const [state, reload] = useReload(productId, () => fetchProductDetail(supabase, productId, canEdit));
  const [deleteRefused, setDeleteRefused] = useState(false);
  const packs = useBusinessPacks(business.id);

  const run = async (what: string, action: () => Promise<unknown>, done?: string) => {
    try {
      await action();
      if (done) notify.success(done);
      reload();
    } catch (error) {
      notify.error(`${what} failed`, message(error));
    }
  };

  if (state.status === 'loading') return <LoadingText />;
  if (state.status === 'error') return <LoadError message="The product could not be loaded." error={state.error} onRetry={reload} />;
  const detail = state.data;
  if (!detail) return <Text>This product does not exist in {business.name}.</Text>;
  const { product, variants, barcodes, prices, costs, stores, categories } = detail;
  const variantLabel = (id: string) => {
    const v = variants.find((x) => x.id === id);
    return v ? `${optionsOf(v)} (${v.sku})` : 'Variant';
  };
  // A store's own price is in that store's currency; the variants' base prices have none recorded (two decimals).
  const currencyOf = (storeId: string) => stores.find((s) => s.id === storeId)?.currency ?? null;

  return (
    <Stack gap="6">
      <Link asChild color="blue.fg"><RouterLink to="/dashboard/catalog">← Products</RouterLink></Link>
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Heading as="h2" size="lg">{product.name}</Heading>
        {product.archived_at && <Badge colorPalette="gray" data-testid="archived-badge">Archived</Badge>}
      </HStack>
      {!canEdit && <Text color="fg.muted">Only owners and managers change products.</Text>}

      {canEdit && (
        <ProductDetailsForm categories={categories}
          initial={{ name: product.name, brand: product.brand ?? '', categoryId: product.category_id ?? '', unit: product.unit as 'each' | 'kg',
            taxRate: product.tax_rate === null ? '' : String(product.tax_rate), trackStock: product.track_stock, hasLots: product.has_lots,
            requiresExpiry: product.requires_expiry }}
          onSubmit={(values) => run('Saving', () => updateProduct(supabase, product.id, values), 'Product saved')} />
      )}

      {(packs?.includes('size_grid') || product.collection_id) && (
        <ProductCollectionField businessId={product.business_id} productId={product.id} current={product.collection_id}
          canEdit={canEdit} onSaved={reload} />
      )}

      {(packs?.includes('prescriptions') || product.prescription_only || product.controlled) && (
        <ProductPharmacyField productId={product.id} canEdit={canEdit} onSaved={reload}
          flags={{ prescription_only: product.prescription_only, controlled: product.controlled }} />
      )}

      {product.track_stock && (
        <ProductStock supabase={supabase} businessId={product.business_id} stores={stores}
          variants={variants.map((v) => ({ id: v.id, label: `${optionsOf(v)} (${v.sku})` }))} />
      )}
      <ProductImagesCard businessId={product.business_id} productId={product.id} productName={product.name} canEdit={canEdit} />

      <Stack gap="3" as="section" aria-label="Variants">
        <Heading as="h3" size="md">Variants</Heading>
        {variants.map((v) => {
          const own = barcodes.filter((b) => b.variant_id === v.id);
          const label = optionsOf(v);
          return (
            <Box key={v.id} borderWidth="1px" rounded="md" p="3" data-testid="variant-card" opacity={v.archived_at ? 0.6 : 1}>
              <HStack justify="space-between" wrap="wrap">
                <Text fontWeight="medium">{label} {v.archived_at && <Badge size="sm">archived</Badge>}</Text>
                {canEdit && (
                  <Button size="xs" variant="ghost" onClick={() => void run('Archiving', () => setArchived(supabase, 'variants', v.id, !v.archived_at),
                    v.archived_at ? 'Variant restored' : 'Variant archived')}>{v.archived_at ? 'Restore' : 'Archive'}</Button>
                )}
              </HStack>
              {canEdit ? (
                <VariantEditForm label={label} showCost={canEdit}
                  initial={{ sku: v.sku, price: formatPlain(v.price), cost: costs.has(v.id) ? formatPlain(costs.get(v.id) ?? 0) : '' }}
                  onSubmit={(values) => run('Saving', () => updateVariant(supabase, v, values.sku, values.price, values.cost), `${label} saved`)} />
              ) : (
                <Text fontSize="sm">SKU <Text as="span" fontFamily="mono">{v.sku}</Text> · price {formatPlain(v.price)}</Text>
              )}
              <HStack gap="2" wrap="wrap" mt="2">
                {own.map((b) => (
                  <HStack key={b.id} gap="0" borderWidth="1px" rounded="sm" px="2" fontFamily="mono" fontSize="sm" data-testid="barcode">
                    <Text>{b.code}</Text>
                    {canEdit && (
                      <IconButton size="2xs" variant="ghost" aria-label={`Remove barcode ${b.code}`}
                        onClick={() => void run('Removing', () => removeBarcode(supabase, b.id))}><LuX /></IconButton>
                    )}
                  </HStack>
                ))}
                {own.length === 0 && <Text fontSize="sm" color="fg.muted">No barcode</Text>}
              </HStack>
              {canEdit && (
                <HStack gap="2" mt="2" wrap="wrap" align="flex-start">
                  <BarcodeAdder label={label} onAdd={(code, kind) => run('Adding the barcode', () => addBarcode(supabase, v, code, kind), 'Barcode added')} />
                  <Button size="sm" variant="ghost" onClick={() => void run('Generating', () => addInternalBarcode(supabase, v.id), 'Internal barcode added')}>
                    Generate internal barcode
                  </Button>
                </HStack>
              )}
            </Box>
          );
        })}
      </Stack>

      <Stack gap="3" as="section" aria-label="Store prices">
        <Heading as="h3" size="md">Store prices</Heading>
        <Text fontSize="sm" color="fg.muted">A store's own price replaces the variant's price at that store's tills.</Text>
        {prices.length > 0 && (
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm">
              <Table.Body>
                {prices.map((p) => (
                  <Table.Row key={`${p.store_id}-${p.variant_id}`} data-testid="store-price">
                    <Table.Cell>{stores.find((s) => s.id === p.store_id)?.name ?? 'Store'}</Table.Cell>
                    <Table.Cell>{variantLabel(p.variant_id)}</Table.Cell>
                    <Table.Cell textAlign="end">{formatPlain(p.price, currencyOf(p.store_id))}</Table.Cell>
                    <Table.Cell textAlign="end">
                      {canEdit && (
                        <Button size="xs" variant="ghost" onClick={() => void run('Removing', () => removeStorePrice(supabase, p.store_id, p.variant_id), 'Store price removed')}>
                          Remove
                        </Button>
                      )}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
        {canEdit && stores.length > 0 && (
          <StorePriceForm stores={stores} variants={variants.filter((v) => !v.archived_at).map((v) => ({ id: v.id, label: variantLabel(v.id) }))}
            onSubmit={(values) => run('Setting the price', () => setStorePrice(supabase, product.business_id, values.storeId, values.variantId,
              toMinorUnits(values.price, currencyOf(values.storeId)) ?? 0), 'Store price set')} />
        )}
      </Stack>

      {canEdit && (
        <Stack gap="3" as="section" aria-label="Archive or delete">
          <Heading as="h3" size="md">Archive or delete</Heading>
          {deleteRefused && (
            <Alert.Root status="info" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Description>This product has stock history (it was received or sold), so it cannot be deleted: archive it instead.</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <HStack gap="2" wrap="wrap">
            <Button variant="outline" onClick={() => void run('Archiving', () => setArchived(supabase, 'products', product.id, !product.archived_at),
              product.archived_at ? 'Product restored' : 'Product archived')}>
              {product.archived_at ? 'Restore product' : 'Archive product'}
            </Button>
            <Button variant="outline" colorPalette="red" onClick={() => {
              deleteProduct(supabase, product.id).then(() => {
                notify.success('Product deleted', product.name);
                void navigate('/dashboard/catalog');
              }, (error: unknown) => {
                if (error instanceof CatalogError && error.code === '23503') setDeleteRefused(true);
                else notify.error('Product not deleted', message(error));
              });
            }}>Delete product</Button>
          </HStack>
        </Stack>
      )}
    </Stack>
  );
}
