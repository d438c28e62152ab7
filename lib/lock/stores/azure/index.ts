// lockboard/azure: Lockboard's lock on Azure Blob Storage (a fixed lease whose id is its token) and the Azure lock
// store (list, inspect, force-release of Terraform azurerm locks, WebJobs singletons and other blob leases).
// Needs @azure/storage-blob (and @azure/identity for Entra ID).
export { acquireAzureLock, withAzureLock, type AzureAcquireOptions } from './acquire';
export { AzureLock, type AzureReleaseOutcome } from './lock';
export { AzureLockStore, type AzureStoreOptions } from './store';
export { AzureBlobs } from './blobs';
export { azureContainer } from './client';
export type { LockView, StoreList, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
