import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { Route, Routes } from 'react-router-dom';
import { LoadingText } from '../../components/loading-text';
import { CollectionsPage } from './collections-page';
import { ProductEditPage } from './product-edit-page';
import { ProductsPage } from './products-page';
import { ScaleRulesPage } from './scale-rules-page';
import { useCurrentBusiness } from './use-current-business';

/** The Catalog area (/dashboard/catalog/*): products, variants, barcodes and prices of the current business. */
export function CatalogApp() {
  const { status, business } = useCurrentBusiness();
  return (
    <Stack gap="5">
      <Box>
        <Heading as="h1" size="xl">Catalog</Heading>
        <Text color="fg.muted">Products, variants, SKUs and barcodes{business ? ` of ${business.name}` : ''}.</Text>
      </Box>
      {status === 'loading' ? <LoadingText /> : status === 'error' ? (
        <Text color="fg.error">Your businesses could not be loaded. Reload the page to try again.</Text>
      ) : business ? (
        <Routes>
          <Route index element={<ProductsPage business={business} />} />
          <Route path="products/:productId" element={<ProductEditPage business={business} />} />
          <Route path="collections" element={<CollectionsPage business={business} />} />
          <Route path="scale-rules" element={<ScaleRulesPage business={business} />} />
        </Routes>
      ) : (
        <Text>You do not belong to a business yet.</Text>
      )}
    </Stack>
  );
}
