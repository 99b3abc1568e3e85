import { createContext, memo, useContext, useEffect, useState, type ReactNode } from 'react';
import { Box, Image } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { fetchPosImages, thumbnailUrl } from '../../lib/product-images/product-images-api';
import { cachedImage, openImageDb, prefetchImages, readImageMap, saveImageMap, type ImageDatabase } from './image-cache';

interface PosImages {
  db: ImageDatabase | null;
  /** Variant id -> the small preview's public URL. */
  urls: Map<string, string>;
}
const PosImagesContext = createContext<PosImages>({ db: null, urls: new Map() });

/**
 * The register's product pictures (docs/adr/0320): the device's map of which variant shows which small preview at
 * once, then the server's when online (kept for the next start, and its previews fetched into the bounded cache in
 * the background so they show offline too).
 */
export function PosImagesProvider({ supabase, businessId, online, children }: {
  supabase: StorewiseClient; businessId: string; online: boolean; children: ReactNode;
}) {
  const [value, setValue] = useState<PosImages>({ db: null, urls: new Map() });
  useEffect(() => {
    let stale = false;
    const toUrls = (paths: Map<string, string>) => new Map([...paths].map(([variant, path]) => [variant, thumbnailUrl(supabase, path)]));
    void (async () => {
      const db = await openImageDb().catch(() => null);
      if (!db || stale) return;
      const stored = await readImageMap(db, businessId).catch(() => null);
      if (!stale) setValue({ db, urls: toUrls(stored ?? new Map()) });
      if (!online) return;
      const entries = await fetchPosImages(supabase, businessId).catch(() => null);
      if (!entries || stale) return;
      await saveImageMap(db, businessId, entries).catch(() => undefined);
      const urls = toUrls(new Map(entries));
      setValue({ db, urls });
      await prefetchImages(db, [...urls.values()], { isStale: () => stale }).catch(() => undefined);
    })();
    return () => {
      stale = true;
    };
  }, [supabase, businessId, online]);
  return <PosImagesContext.Provider value={value}>{children}</PosImagesContext.Provider>;
}

/** The picture's bytes from the device's cache (fetched and kept on first use), as an object URL. */
function useCachedUrl(db: ImageDatabase | null, url: string | undefined): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!db || !url) return;
    let made: string | null = null;
    let stale = false;
    void cachedImage(db, url).then((blob) => {
      if (stale || !blob) return;
      made = URL.createObjectURL(blob);
      setObjectUrl(made);
    });
    return () => {
      stale = true;
      if (made) URL.revokeObjectURL(made);
      setObjectUrl(null);
    };
  }, [db, url]);
  return objectUrl;
}

/** A variant's small picture in search results and cart lines; an empty square of the same size when it has none. */
export const PosThumb = memo(function PosThumb({ variantId, size = '10' }: { variantId: string; size?: string }) {
  const { db, urls } = useContext(PosImagesContext);
  const src = useCachedUrl(db, urls.get(variantId));
  return src
    ? <Image src={src} alt="" w={size} h={size} flexShrink={0} objectFit="contain" rounded="sm" data-testid="pos-thumb" />
    : <Box w={size} h={size} flexShrink={0} aria-hidden />;
});
