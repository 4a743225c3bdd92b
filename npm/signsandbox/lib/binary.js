'use strict';
// Where the signsandbox binary is. npm installs, of the optional
// dependencies in package.json, the one platform package whose os and cpu
// match this machine; it holds the binary in bin/. SIGNSANDBOX_BINARY
// names another binary instead (one built from source, or where optional
// dependencies are not installed).

const fs = require('node:fs');

/** The platform packages, by Node's process.platform and process.arch. */
const PLATFORM_PACKAGES = {
  'darwin arm64': '@signsandbox/darwin-arm64',
  'darwin x64': '@signsandbox/darwin-x64',
  'linux arm64': '@signsandbox/linux-arm64',
  'linux x64': '@signsandbox/linux-x64',
  'win32 arm64': '@signsandbox/win32-arm64',
  'win32 x64': '@signsandbox/win32-x64',
};

/** The platform package for a platform and architecture, or undefined. */
function platformPackage(platform = process.platform, arch = process.arch) {
  return PLATFORM_PACKAGES[`${platform} ${arch}`];
}

/**
 * The path of the binary: SIGNSANDBOX_BINARY when set, else the binary of
 * the installed platform package. It throws an error that says what to do
 * when there is none.
 */
function binaryPath(env = process.env, platform = process.platform, arch = process.arch, resolve = require.resolve) {
  const override = env.SIGNSANDBOX_BINARY;
  if (override) {
    if (!fs.existsSync(override)) throw new Error(`signsandbox: SIGNSANDBOX_BINARY is ${override}, which does not exist`);
    return override;
  }
  const pkg = platformPackage(platform, arch);
  const build = 'go install github.com/signsandbox/signsandbox/cmd/signsandbox@latest';
  if (!pkg) {
    throw new Error(`signsandbox: no binary is published for ${platform}/${arch}; build one (${build}) and set SIGNSANDBOX_BINARY to its path`);
  }
  const file = `${pkg}/bin/signsandbox${platform === 'win32' ? '.exe' : ''}`;
  try {
    return resolve(file);
  } catch {
    throw new Error(
      `signsandbox: the package ${pkg}, which holds the binary for ${platform}/${arch}, is not installed. ` +
        'npm installs it as an optional dependency of signsandbox: reinstall without --omit=optional (or --no-optional), ' +
        `or set SIGNSANDBOX_BINARY to a binary (${build})`,
    );
  }
}

module.exports = { PLATFORM_PACKAGES, platformPackage, binaryPath };
