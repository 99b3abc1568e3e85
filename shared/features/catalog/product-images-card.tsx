import { useRef, useState, type DragEvent } from 'react';
import { Badge, Box, Button, Heading, HStack, Image, Input, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import {
  addProductImage, fetchProductImages, IMAGES_BUCKET, PRODUCT_IMAGES_MAX, productImageFileSchema, publicImageUrl, removeProductImage,
  setMainProductImage, thumbnailUrl, type ProductImage,
} from '../../lib/product-images/product-images-api';
import { useReload } from './use-reload';

/**
 * A product's pictures (docs/adr/0320): owners and managers drop or pick several at once (each is checked, then its
 * previews are made in the browser and the three files uploaded), choose the main one and remove them. The
 * gallery shows the medium previews; the full-size file opens only from its link.
 */
export function ProductImagesCard({ businessId, productId, productName, canEdit }: {
  businessId: string; productId: string; productName: string; canEdit: boolean;
}) {
  const supabase = useSupabase();
  const [state, reload] = useReload(`images|${productId}`, () => fetchProductImages(supabase, productId));
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const picker = useRef<HTMLInputElement | null>(null);
  const images = state.status === 'ready' ? state.data : [];

  const add = async (files: File[]) => {
    const refused: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const parsed = productImageFileSchema.safeParse(file);
      if (parsed.success) accepted.push(parsed.data);
      else refused.push(`${file.name}: ${parsed.error.issues[0]?.message ?? 'refused'}`);
    }
    const room = PRODUCT_IMAGES_MAX - images.length;
    if (accepted.length > room) refused.push(`A product has ${PRODUCT_IMAGES_MAX} pictures at most: ${accepted.length - Math.max(room, 0)} not added`);
    const chosen = accepted.slice(0, Math.max(room, 0));
    setProblems(refused);
    if (chosen.length === 0) return;
    setBusy(true);
    let position = images.reduce((top, image) => Math.max(top, image.position + 1), 0);
    let hasMain = images.some((image) => image.is_main);
    let added = 0;
    for (const file of chosen) {
      try {
        await addProductImage(supabase, { businessId, productId }, file, position, !hasMain);
        position += 1;
        hasMain = true;
        added += 1;
      } catch (error) {
        refused.push(`${file.name}: ${error instanceof Error ? error.message : 'not uploaded'}`);
      }
    }
    setProblems([...refused]);
    setBusy(false);
    if (added > 0) notify.success(added === 1 ? 'Picture added' : `${added} pictures added`);
    reload();
  };

  const act = async (what: string, action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      notify.error(`${what} failed`, error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
      reload();
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (canEdit && !busy) void add([...event.dataTransfer.files]);
  };

  return (
    <Stack gap="3" as="section" aria-label="Pictures">
      <Heading as="h3" size="md">Pictures</Heading>
      {state.status === 'loading' && <LoadingText />}
      {state.status === 'error' && <LoadError message="The pictures could not be loaded." error={state.error} onRetry={reload} />}
      {state.status === 'ready' && images.length === 0 && <Text fontSize="sm" color="fg.muted">No pictures yet.</Text>}
      {images.length > 0 && (
        <SimpleGrid columns={{ base: 2, sm: 3, md: 4 }} gap="3">
          {images.map((image: ProductImage, index) => (
            <Stack key={image.id} gap="1" borderWidth="1px" rounded="md" p="2" data-testid="product-image" data-main={image.is_main}>
              <Box position="relative">
                <Image src={thumbnailUrl(supabase, image.medium_path)} alt={`${productName}, picture ${index + 1}`} w="full" aspectRatio="1"
                  objectFit="contain" loading="lazy" />
                {image.is_main && <Badge position="absolute" top="1" left="1" colorPalette="blue">Main</Badge>}
              </Box>
              <HStack gap="1" wrap="wrap">
                <Link fontSize="xs" color="blue.fg" href={publicImageUrl(supabase, IMAGES_BUCKET, image.path)} target="_blank" rel="noreferrer">Full size</Link>
                {canEdit && !image.is_main && (
                  <Button size="2xs" variant="outline" disabled={busy} aria-label={`Make picture ${index + 1} the main picture`}
                    onClick={() => void act('Choosing the main picture', () => setMainProductImage(supabase, image.id))}>Make main</Button>
                )}
                {canEdit && (
                  <Button size="2xs" variant="ghost" colorPalette="red" disabled={busy} aria-label={`Remove picture ${index + 1}`}
                    onClick={() => void act('Removing the picture', () => removeProductImage(supabase, image, images))}>Remove</Button>
                )}
              </HStack>
            </Stack>
          ))}
        </SimpleGrid>
      )}
      {canEdit && (
        <Box borderWidth="2px" borderStyle="dashed" rounded="md" p="4" textAlign="center" data-testid="image-drop"
          borderColor={dragging ? 'blue.solid' : 'border'} bg={dragging ? 'blue.subtle' : undefined}
          onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
          <Text fontSize="sm">Drop pictures here, or</Text>
          <Button size="sm" mt="2" variant="outline" loading={busy} onClick={() => picker.current?.click()}>Choose pictures</Button>
          <Input ref={picker} type="file" multiple accept="image/png,image/jpeg,image/webp" display="none" aria-label="Product pictures"
            data-testid="product-images-input" onChange={(event) => {
              const files = [...(event.currentTarget.files ?? [])];
              event.currentTarget.value = '';
              void add(files);
            }} />
          <Text fontSize="xs" color="fg.muted" mt="2">PNG, JPG or WebP up to 5 MB each, {PRODUCT_IMAGES_MAX} at most. The first becomes the main picture.</Text>
        </Box>
      )}
      {problems.length > 0 && (
        <Stack gap="0" role="alert">{problems.map((problem) => <Text key={problem} fontSize="sm" color="fg.error">{problem}</Text>)}</Stack>
      )}
    </Stack>
  );
}
