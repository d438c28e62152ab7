// lockboard/azure: Lockboard's lock on Azure Blob Storage (a fixed lease whose id is its token) and the Azure lock
// store (list, inspect, force-release of Terraform azurerm locks, WebJobs singletons and other blob leases).
// Needs @azure/storage-blob (and @azure/identity for Entra ID).
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { AzureLockStore as AzureStoreReads } from './store';
export { acquireAzureLock, withAzureLock, type AzureAcquireOptions } from './acquire';
export { AzureLock, type AzureReleaseOutcome } from './lock';
export { type AzureStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const AzureLockStore = judgedStoreClass(AzureStoreReads);
export type AzureLockStore = Judged<AzureStoreReads>;
export { AzureBlobs } from './blobs';
export { azureContainer } from './client';
export type { LockView, StoreList, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
