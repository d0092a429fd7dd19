/** After the payment is confirmed the checkout shows the renewal, then goes home (spec 2 section 9: 4 seconds). */
export const CHECKOUT_REDIRECT_MS = 4000;
