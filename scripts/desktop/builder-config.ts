import type { Configuration } from 'electron-builder';

/**
 * The desktop installers (`npm run dist`, docs/adr/0273), built from the environment so no secret is ever
 * committed and one config serves every signing setup:
 *
 * - Windows: the per-user NSIS installer (auto-update) and the per-machine MSI for IT (Intune, GPO, SCCM;
 *   updates come with the next MSI: the app turns auto-update off under Program Files, and a machine policy
 *   can say so explicitly). Signed with Azure Trusted Signing when AZURE_TRUSTED_SIGNING_ENDPOINT is set
 *   (electron-builder reads AZURE_TENANT_ID / AZURE_CLIENT_ID / AZURE_CLIENT_SECRET itself), otherwise with the
 *   certificate in CSC_LINK / CSC_KEY_PASSWORD (or WIN_CSC_LINK / WIN_CSC_KEY_PASSWORD) when set.
 * - macOS: DMG to install, ZIP for electron-updater (Squirrel.Mac updates from the zip). Signed with CSC_LINK /
 *   CSC_KEY_PASSWORD (a Developer ID Application certificate) and notarized with an App Store Connect API key:
 *   APPLE_API_KEY (path to the .p8), APPLE_API_KEY_ID, APPLE_API_ISSUER.
 * - Linux: AppImage (self-updating) and deb.
 *
 * Updates: a generic HTTPS server at STOREWISE_UPDATE_URL holding latest*.yml, beta*.yml and the installers.
 * A version like 1.5.0-beta.1 is published to the beta channel; generateUpdatesFilesForAllChannels also writes
 * a stable release into beta*.yml, so beta PCs get stable releases too. A staged rollout is the
 * `stagingPercentage` line added to a published yml (see the README).
 */

export type BuildEnv = Record<string, string | undefined>;

/** The MSI's product family: fixed forever, or Windows Installer treats the next MSI as another product. */
export const MSI_UPGRADE_CODE = '6f1d3c2a-5b7e-4c19-9a4d-2e8f7b6c1a30';

function windowsSigning(env: BuildEnv): Pick<NonNullable<Configuration['win']>, 'azureSignOptions' | 'signtoolOptions'> {
  // electron-updater checks a downloaded installer is signed by this publisher (the certificate's CN).
  const publisherName = env.STOREWISE_WIN_PUBLISHER || 'Storewise';
  if (env.AZURE_TRUSTED_SIGNING_ENDPOINT) {
    return {
      azureSignOptions: {
        endpoint: env.AZURE_TRUSTED_SIGNING_ENDPOINT,
        codeSigningAccountName: env.AZURE_CODE_SIGNING_ACCOUNT ?? '',
        certificateProfileName: env.AZURE_CERTIFICATE_PROFILE ?? '',
        publisherName,
      },
    };
  }
  return { signtoolOptions: { signingHashAlgorithms: ['sha256'], publisherName } };
}

export function builderConfig(env: BuildEnv): Configuration {
  return {
    appId: 'com.storewise.desktop',
    productName: 'Storewise',
    copyright: 'Copyright © Storewise',
    directories: { output: 'release', buildResources: 'build' },
    // Only the compiled app: main, preload and renderer bundles (dependencies are added by electron-builder).
    files: ['out/**', 'package.json', '!**/*.map'],
    asar: true,
    // keytar's native binding must live outside the archive to be loadable.
    asarUnpack: ['**/node_modules/keytar/**'],
    npmRebuild: true,
    protocols: [{ name: 'Storewise sign-in links', schemes: ['storewise'] }],
    electronFuses: {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    },
    // electron-builder substitutes ${env.X} itself; the URL is never written here.
    publish: { provider: 'generic', url: '${env.STOREWISE_UPDATE_URL}' },
    generateUpdatesFilesForAllChannels: true,

    win: {
      target: [{ target: 'nsis', arch: ['x64'] }, { target: 'msi', arch: ['x64'] }],
      ...windowsSigning(env),
    },
    nsis: {
      // Per user, no admin rights, silent with /S: the installer electron-updater can replace on its own.
      oneClick: true,
      perMachine: false,
      runAfterFinish: true,
      createDesktopShortcut: true,
      deleteAppDataOnUninstall: false,
      artifactName: 'Storewise-Setup-${version}.${ext}',
    },
    msi: {
      // Per machine under Program Files, for IT: msiexec /i Storewise-<version>-x64.msi /qn.
      oneClick: true,
      perMachine: true,
      runAfterFinish: false,
      createDesktopShortcut: true,
      upgradeCode: MSI_UPGRADE_CODE,
      artifactName: 'Storewise-${version}-${arch}.${ext}',
    },

    mac: {
      target: [{ target: 'dmg', arch: ['x64', 'arm64'] }, { target: 'zip', arch: ['x64', 'arm64'] }],
      category: 'public.app-category.business',
      hardenedRuntime: true,
      gatekeeperAssess: false,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
      // Runs when APPLE_API_KEY / APPLE_API_KEY_ID / APPLE_API_ISSUER are set; skipped (with a log line) otherwise.
      notarize: true,
    },
    dmg: { artifactName: 'Storewise-${version}-${arch}.${ext}' },

    linux: {
      target: [{ target: 'AppImage', arch: ['x64'] }, { target: 'deb', arch: ['x64'] }],
      category: 'Office',
      maintainer: 'Storewise <it@storewise.app>',
      synopsis: 'Retail management for shop owners',
    },
    deb: {
      // keytar talks to the Secret Service through libsecret.
      depends: ['libsecret-1-0', 'libnss3', 'libxss1', 'libgtk-3-0'],
    },
  };
}
