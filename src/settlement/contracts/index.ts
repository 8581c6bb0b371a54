export { type ContractArtifact, type ContractName, loadArtifact } from './artifacts.ts';
export { type DeployedContracts, type DeployOptions, deployContracts } from './deploy.ts';
export { proxyWalletAddress, proxyWalletInitCodeHash } from './proxy-wallet-address.ts';
