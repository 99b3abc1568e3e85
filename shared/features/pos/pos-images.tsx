import { createContext, memo, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
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

/** The business's map as URLs, and where it came from: the server's answer is not replaced by the stored one. */
interface Shown { businessId: string; fromServer: boolean; urls: Map<string, string> }

/**
 * The register's product pictures (docs/adr/0320): the device's map of which variant shows which small preview at
 * once, then the server's when online (kept for the next start, and its previews fetched into the bounded cache in
 * the background so they show offline too). The image store is opened once for the provider's life and closed when
 * it goes, so going offline and online again asks the server again but leaves the thumbnails as they are.
 */
export function PosImagesProvider({ supabase, businessId, online, children }: {
  supabase: StorewiseClient; businessId: string; online: boolean; children: ReactNode;
}) {
  const [db, setDb] = useState<ImageDatabase | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    let gone = false;
    let opened: ImageDatabase | null = null;
    openImageDb().then((database) => {
      if (gone) database.close();
      else setDb((opened = database));
    }, () => undefined);
    return () => {
      gone = true;
      opened?.close();
    };
  }, []);

  const toUrls = useCallback((paths: Map<string, string>) =>
    new Map([...paths].map(([variant, path]) => [variant, thumbnailUrl(supabase, path)])), [supabase]);

  // The map this device kept, once per business: pictures at once, offline too.
  useEffect(() => {
    if (!db) return;
    let stale = false;
    readImageMap(db, businessId).then((stored) => {
      if (stale) return;
      setShown((now) => (now?.businessId === businessId && now.fromServer ? now
        : { businessId, fromServer: false, urls: toUrls(stored ?? new Map()) }));
    }, () => undefined);
    return () => {
      stale = true;
    };
  }, [db, businessId, toUrls]);

  // The server's map whenever the register is online, kept for the next start, its previews fetched in the background.
  useEffect(() => {
    if (!db || !online) return;
    let stale = false;
    void (async () => {
      const entries = await fetchPosImages(supabase, businessId).catch(() => null);
      if (!entries || stale) return;
      await saveImageMap(db, businessId, entries).catch(() => undefined);
      const urls = toUrls(new Map(entries));
      if (!stale) setShown({ businessId, fromServer: true, urls });
      await prefetchImages(db, [...urls.values()], { isStale: () => stale }).catch(() => undefined);
    })();
    return () => {
      stale = true;
    };
  }, [db, supabase, businessId, online, toUrls]);

  const urls = shown?.businessId === businessId ? shown.urls : EMPTY;
  const value = useMemo<PosImages>(() => ({ db, urls }), [db, urls]);
  return <PosImagesContext.Provider value={value}>{children}</PosImagesContext.Provider>;
}

const EMPTY = new Map<string, string>();

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
