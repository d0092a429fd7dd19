/** BRL with pt-BR formatting (spec 2 section 1). */
export const formatMoney = (value: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(value || 0);
