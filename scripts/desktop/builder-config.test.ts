import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { builderConfig, MSI_UPGRADE_CODE } from './builder-config';

// electron-builder's own schema check (what `electron-builder` runs before building), from app-builder-lib.
const require = createRequire(import.meta.url);
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
};
const validate = (config: unknown) => validateConfiguration(config, { isEnabled: false, add: () => undefined });

const targetsOf = (targets: unknown) => (targets as { target: string }[]).map((t) => t.target);

describe('the installers electron-builder makes', () => {
  it('passes electron-builder 26\'s schema, with and without signing settings', async () => {
    await expect(validate(builderConfig({}))).resolves.toBeUndefined();
    await expect(validate(builderConfig({
      AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net', AZURE_CODE_SIGNING_ACCOUNT: 'storewise',
      AZURE_CERTIFICATE_PROFILE: 'public-trust', STOREWISE_WIN_PUBLISHER: 'Storewise Ltd',
    }))).resolves.toBeUndefined();
    // The check is real: a misplaced key is refused.
    await expect(validate({ ...builderConfig({}), nsis: { perMachineByMistake: true } })).rejects.toThrow(/Invalid configuration object[\s\S]*configuration\.nsis/);
  }, 60_000); // the schema (thousands of lines) compiles slowly on a busy machine

  it('Windows: per-user NSIS that updates itself, per-machine MSI for IT with a fixed upgrade code', () => {
    const config = builderConfig({});
    expect(targetsOf(config.win?.target)).toEqual(['nsis', 'msi']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false });
    expect(config.msi).toMatchObject({ oneClick: true, perMachine: true, runAfterFinish: false, upgradeCode: MSI_UPGRADE_CODE });
  });

  it('macOS: DMG to install and ZIP for updates, notarized; Linux: AppImage and deb', () => {
    const config = builderConfig({});
    expect(targetsOf(config.mac?.target)).toEqual(['dmg', 'zip']);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true });
    expect(targetsOf(config.linux?.target)).toEqual(['AppImage', 'deb']);
  });

  it('signs Windows with Azure Trusted Signing when its endpoint is set, else with a certificate from CSC_LINK', () => {
    const azure = builderConfig({
      AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net', AZURE_CODE_SIGNING_ACCOUNT: 'storewise', AZURE_CERTIFICATE_PROFILE: 'public-trust',
    });
    expect(azure.win?.azureSignOptions).toEqual({
      endpoint: 'https://weu.codesigning.azure.net', codeSigningAccountName: 'storewise', certificateProfileName: 'public-trust', publisherName: 'Storewise',
    });
    expect(azure.win?.signtoolOptions).toBeUndefined();
    const certificate = builderConfig({ STOREWISE_WIN_PUBLISHER: 'Storewise Ltd' });
    expect(certificate.win?.azureSignOptions).toBeUndefined();
    expect(certificate.win?.signtoolOptions).toMatchObject({ publisherName: 'Storewise Ltd' });
  });

  it('holds no secret: only placeholders electron-builder fills from the environment', () => {
    const secrets = { CSC_KEY_PASSWORD: 'pfx-password-1', AZURE_CLIENT_SECRET: 'azure-secret-2', APPLE_API_KEY: '/keys/AuthKey.p8', STOREWISE_UPDATE_URL: 'https://u.example/' };
    const text = JSON.stringify(builderConfig(secrets));
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
    expect(builderConfig(secrets).publish).toEqual({ provider: 'generic', url: '${env.STOREWISE_UPDATE_URL}' });
  });
});
