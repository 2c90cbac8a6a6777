/** The package root, for the compiler's own files (theme assets, schemas); lib/ finds it. */
export { fromPackageRoot, packageRoot } from '../lib/package-root.js'
