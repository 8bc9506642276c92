/// Where a crash can be injected, to prove that recovery delivers exactly once.
public enum CrashPoint: String, Sendable, CaseIterable {
    /// The payment is recorded; nothing is delivered yet.
    case afterCharge = "after-charge"
    /// Delivered; the transaction is not finished yet.
    case afterDeliver = "after-deliver"
    /// A renewal is charged (its transaction recorded); its period's hints are not credited yet.
    case afterRenewalCharge = "after-renewal-charge"
    /// A refund decision is written, not committed (the process dies inside the database's
    /// transaction: nothing of it is kept).
    case inRefundDecision = "in-refund-decision"
    /// A mass extension reached an account, and the request's progress is not kept yet.
    case inMassExtension = "in-mass-extension"
    /// An offer code is claimed across the service; its purchase is not recorded yet.
    case afterOfferCodeClaim = "after-offer-code-claim"
}
