/**
 * The Pix payment provider (docs/billing.md). The same port in AWS (a real PSP such as Efí), on one machine and in
 * tests (the fake bank). Amounts travel as Pix strings ("100.00"); status names are BACEN's (ATIVA, CONCLUIDA ...).
 */
export type PixChargeStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP";

export type PixCharge = {
  txid: string;
  status: PixChargeStatus;
  /** amount charged */
  original: string;
  /** amount received (set once paid) */
  paid: string | null;
  /** the Pix "copia e cola" (EMV BR Code) the payer pastes or scans */
  copyPaste: string;
  expiresAt: string;
};

export type NewPixCharge = {
  /** our id of the charge (26-35 letters and digits, BACEN's rule) */
  txid: string;
  original: string;
  /** shown to the payer in their bank app */
  description: string;
  expiresInSeconds: number;
};

export type PixProvider = {
  readonly name: string;
  createPixCharge(input: NewPixCharge): Promise<PixCharge>;
  /** the provider's word on a charge: null when the provider does not know it */
  getCharge(txid: string): Promise<PixCharge | null>;
};
