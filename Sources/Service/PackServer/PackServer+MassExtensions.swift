import AppStore
import HTTPServer
import PackServiceWire
import Seller

/// Apple's Extend Subscription Renewal Dates for All Active Subscribers: a request is kept in the
/// service's own ledger and answered at once; servers then carry it out beside the requests
/// (``carryOutMassExtensions(now:)``), a batch of accounts at a time, one server at a time, and
/// the developer's server reads its status or hears `RENEWAL_EXTENSION` `SUMMARY`.
extension PackServer {
    /// Accounts one pass carries a request through.
    static let massExtensionBatch = 100
    /// How long a server holds a request for one pass (milliseconds): a server that died holding
    /// it leaves it to another after this.
    static let massExtensionHold: Int64 = 15_000

    /// `POST /inApps/v1/subscriptions/extend/mass`: Apple's checks, then the request kept (the
    /// same identifier again answers the same request, and starts nothing more).
    func requestMassExtension(_ body: [UInt8], now: Int64) throws(ServiceError) -> HTTPResponse {
        guard body.count <= 16 << 10, let asked = try? Wire.decode(MassExtendRequest.self, from: body) else { return Self.appleError(.generalBadRequest) }
        let checked: (days: Int, reason: Int, identifier: String)
        switch asked.single.checked() {
        case .success(let fields): checked = fields
        case .failure(let refusal): return Self.appleError(refusal)
        }
        guard let text = asked.productId, let product = ProductID(rawValue: text), catalog.product(product)?.autoRenewable != nil else {
            return Self.appleError(.invalidProductId)
        }
        let storefronts = asked.storefrontCountryCodes ?? []
        guard storefronts.count <= 200, storefronts.allSatisfy({ catalog.storefronts[$0] != nil }) else {
            return Self.appleError(.invalidStorefrontCountryCode)
        }
        let request = MassExtension(
            requestIdentifier: checked.identifier, productID: product, days: checked.days, reason: checked.reason, storefronts: storefronts, requestedDate: now)
        _ = try withLedger(Self.serviceLedger) { service throws(ServiceError) in try service.insertMassExtension(request) }
        massExtensionsPending.store(true, ordering: .relaxed)
        return .json(200, try Wire.encode(["requestIdentifier": checked.identifier]))
    }

    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
    func massExtensionStatus(_ id: String) throws(ServiceError) -> HTTPResponse {
        let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let product = ProductID(rawValue: parts[0]) else { return Self.appleError(.invalidProductId) }
        guard (1...128).contains(parts[1].utf8.count) else { return Self.appleError(.invalidRequestIdentifier) }
        let found = try withLedger(Self.serviceLedger) { service throws(ServiceError) in try service.massExtension(parts[1]) }
        guard let found, found.productID == product else { return Self.appleError(.invalidRequestIdentifier) }
        return .json(
            200,
            try Wire.encode(
                MassExtendStatus(
                    requestIdentifier: found.requestIdentifier, complete: found.completeDate != nil, completeDate: found.completeDate,
                    succeededCount: found.succeeded, failedCount: found.failed)))
    }

    /// Whether a mass extension may be waiting: the service's ledger is there (one was asked for,
    /// or a test notification). Its ledger is never made for the question.
    public func lookForMassExtensions() {
        if (try? seller.hasLedger(Self.serviceLedger)) == true { massExtensionsPending.store(true, ordering: .relaxed) }
    }

    /// One pass of the mass extensions at `now` (the real clock): the oldest request no server
    /// holds is held for the pass (``massExtensionHold``), carried through the next batch of accounts (each account's
    /// extension its own transaction, once per request), and its progress kept; complete, its
    /// summary is signed into the service's outbox. An account that cannot be read stops the
    /// pass before it: the next pass starts there. How many accounts the pass went through.
    @discardableResult
    public func carryOutMassExtensions(now: Int64) -> Int {
        guard massExtensionsPending.load(ordering: .relaxed) else { return 0 }
        do {
            let heldUntil = now + Self.massExtensionHold
            let claim = try withLedger(Self.serviceLedger) { service throws(ServiceError) in try service.claimMassExtension(until: heldUntil) }
            guard let held = claim.held else {
                // Another server's, to be taken up if it goes silent; else nothing to do.
                massExtensionsPending.store(claim.waiting, ordering: .relaxed)
                return 0
            }
            var request = held
            // One more than a batch: whether the request ends with this pass.
            let accounts = try seller.accountsWithLedgers(after: held.lastAccount ?? "", limit: Self.massExtensionBatch + 1)
            var went = 0
            for account in accounts.prefix(Self.massExtensionBatch) {
                defer { request.lastAccount = account }
                if account == Self.serviceLedger { continue }
                // A damaged account is counted failed and passed: it stops no request. Anything else
                // (a database out of reach) ends the pass, which the next one starts again here.
                let step: MassExtensionStep
                do {
                    step = try withLedger(account) { service throws(ServiceError) in try service.extendForAll(held) }
                } catch where error.kind == .storage {
                    notificationLog.withLock { $0 }?("mass extension \(held.requestIdentifier): account \(account): \(error.message); counted failed")
                    step = .failed
                }
                switch step {
                case .extended, .extendedBefore: request.succeeded += 1
                case .failed: request.failed += 1
                case .notSubscribed: break
                }
                configuration.crashPoints(.inMassExtension)
                went += 1
            }
            var summary: (uuid: String, payload: String)?
            if accounts.count <= Self.massExtensionBatch {
                request.completeDate = now
                let uuid = OutboxNotification.newUUID()
                summary = (uuid, try sign(
                    AppStoreNotificationPayload(
                        notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY", notificationUUID: uuid, signedDate: now, data: nil,
                        summary: AppStoreNotificationPayload.Summary(
                            requestIdentifier: request.requestIdentifier, environment: AppStoreTransaction.environmentName(configuration.environment),
                            appAppleId: catalog.appAppleID, bundleId: catalog.bundleIdentifier, productId: request.productID.rawValue,
                            storefrontCountryCodes: request.storefronts.isEmpty ? nil : request.storefronts, failedCount: request.failed,
                            succeededCount: request.succeeded))))
            }
            let finished = request
            try withLedger(Self.serviceLedger) { service throws(ServiceError) in
                try service.saveMassExtension(finished, heldUntil: heldUntil, summary: configuration.notificationURL == nil ? nil : summary)
            }
            return went
        } catch {
            notificationLog.withLock { $0 }?("mass extension: \(error.message); tried again in a moment")
            return 0
        }
    }
}
