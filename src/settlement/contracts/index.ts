export { type ContractArtifact, type ContractName, loadArtifact } from './artifacts.ts';
export { type DeployedContracts, type DeployOptions, deployContracts } from './deploy.ts';
export { proxyWalletAddress } from '../../core/proxy-wallet.ts';
export { proxyWalletInitCodeHash } from './proxy-wallet-init-code.ts';
