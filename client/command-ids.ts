// Every command id of the extension, in one place, so that package.json, the code and the in-editor
// tests cannot drift apart. All are contributed under the category "eForms".

export const Commands = {
  /** Ask for the API key (or take it as the first argument) and store it in SecretStorage. */
  setApiKey: 'eforms.setApiKey',
  /** Remove the API key from SecretStorage. */
  clearApiKey: 'eforms.clearApiKey',
  /** Validate the active notice now, whatever `eforms.validation.run` says. */
  validateNow: 'eforms.validateNow',
  /** Pick preview, production, sandbox or a custom URL. */
  selectEnvironment: 'eforms.selectEnvironment',
  /** Open the extension's log. */
  showLog: 'eforms.showLog',
  // Publication (eNotices2)
  submitNotice: 'eforms.submitNotice',
  convertLegacyNotice: 'eforms.convertLegacyNotice',
  openValidationReport: 'eforms.openValidationReport',
  stopPublication: 'eforms.stopPublication',
  copyBusinessId: 'eforms.copyBusinessId',
  refreshNotices: 'eforms.refreshNotices',
  filterNotices: 'eforms.filterNotices',
  loadMoreNotices: 'eforms.loadMoreNotices',
  /** Internal: the links of the validation report view, which reveal a finding in its notice. */
  revealReportFinding: 'eforms.publication.revealFinding',
  // Agri-food market data
  openMarketExplorer: 'eforms.openMarketExplorer',
  refreshMarketPrices: 'eforms.refreshMarketPrices',
  /** Exports the open explorer's rows as CSV (optional target file argument skips the save dialog). */
  exportMarketCsv: 'eforms.marketExplorer.exportCsv',
  // Authoring
  /** A new notice of a chosen subtype from the SDK (a subtype argument skips the picker). */
  newNotice: 'eforms.newNotice',
  // Preview
  /** The notice rendered as TED publishes it, in a webview (a Uri argument names the notice). */
  openPreview: 'eforms.openPreview',
  /** The same, beside the notice (the editor title button). */
  openPreviewToSide: 'eforms.openPreviewToSide',
} as const;

export const Views = {
  myNotices: 'eforms.myNotices',
  marketPrices: 'eforms.marketPrices',
} as const;
