"""A developer's backend written against Apple's App Store Server Library, unchanged but for the
base URL and the trusted root.

  backend.py keygen DIR
      makes an API key pair: DIR/private.pem (the backend keeps it), DIR/public.pem (registered
      with the server: --api-key KID=DIR/public.pem)
  backend.py transaction BASE_URL KEY_DIR KID ISSUER BUNDLE ROOT_DER TRANSACTION_ID
      Get Transaction Info, the answer verified with SignedDataVerifier against ROOT_DER; prints
      the decoded transaction as JSON, or `error <HTTP status> <errorCode>` and exits 2.
  backend.py COMMAND BASE_URL KEY_DIR KID ISSUER BUNDLE ROOT_DER ARGS...  (every answer verified)
      history ID [PRODUCT_TYPE]    Get Transaction History v2, every page: one JSON line per page
      statuses ID                  Get All Subscription Statuses, as JSON
      refunds ID                   Get Refund History, every page, as JSON
      extend ORIGINAL_ID DAYS      Extend a Subscription Renewal Date
      consumption ID               Send Consumption Information
      set-app-account-token ORIGINAL_ID UUID   Set App Account Token
      app-transaction ANY_ID       Get App Transaction Info, verified as an AppTransaction
      consumption-v2 ID DELIVERY [PERCENT [REFUND]]   Send Consumption Information (v2)
      finish ID                    Finish Transaction
      order ORDER_ID               Look Up Order ID: its status and transactions, as JSON
      raw METHOD PATH [BODY]       a request of one's own, with the library's token: prints the
                                   status and the body (for bodies the library would not send)
      test-notification            Request a Test Notification, then its status until attempted
      mass-extend PRODUCT_ID DAYS REQUEST_ID [STOREFRONT,...]   Extend Subscription Renewal Dates for All
                                   Active Subscribers
      mass-status PRODUCT_ID REQUEST_ID   Get Status of Subscription Renewal Date Extensions, as JSON
      verify-app-transaction JWS   SignedDataVerifier on a signed app transaction (StoreKit's
                                   AppTransaction.shared), its fields as JSON
      sign-intro PRODUCT_ID ALLOW TRANSACTION_ID   IntroductoryOfferEligibilitySignatureCreator's
                                   JWS (ALLOW: true or false), printed
      sign-promo PRODUCT_ID OFFER_ID [TRANSACTION_ID]   PromotionalOfferV2SignatureCreator's JWS
      sign-raw CLAIMS_JSON         a JWS of one's own claims with the key (hostile cases)
      notification-history START_MS END_MS [TRANSACTION_ID]
  backend.py receive ROOT_DER BUNDLE PORT_FILE OUT_FILE FAIL_FIRST
      a notification receiver on 127.0.0.1 (its port written to PORT_FILE): each POST verified
      with SignedDataVerifier and appended to OUT_FILE as a JSON line; the first FAIL_FIRST
      answered 500."""
import hashlib
import http.server
import json
import os
import sys
import time

import attr

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.TransactionHistoryRequest import ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

if sys.argv[1] == "keygen":
    folder = sys.argv[2]
    key = ec.generate_private_key(ec.SECP256R1())
    with open(os.path.join(folder, "private.pem"), "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(os.path.join(folder, "public.pem"), "wb") as f:
        f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    sys.exit(0)


def fields_of(decoded):
    if decoded is None:
        return None
    fields = {field.name: getattr(decoded, field.name) for field in attr.fields(type(decoded))}
    return {key: value for key, value in fields.items() if value is not None and not key.startswith("raw") or key in ("rawType", "rawEnvironment")}


if sys.argv[1] == "receive":
    root_file, bundle, port_file, out_file, fail_first = sys.argv[2:7]
    with open(root_file, "rb") as f:
        verifier = SignedDataVerifier([f.read()], False, Environment.SANDBOX, bundle)
    seen = {"posts": 0}

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            seen["posts"] += 1
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            status = 500 if seen["posts"] <= int(fail_first) else 200
            line = {"post": seen["posts"], "answered": status, "body": hashlib.sha256(body).hexdigest()}
            try:
                decoded = verifier.verify_and_decode_notification(json.loads(body)["signedPayload"])
                line.update(uuid=decoded.notificationUUID, type=decoded.rawNotificationType, subtype=decoded.rawSubtype, version=decoded.version)
                if decoded.data and decoded.data.rawConsumptionRequestReason:
                    line.update(consumptionRequestReason=decoded.data.rawConsumptionRequestReason)
                if decoded.data and decoded.data.signedTransactionInfo:
                    transaction = verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
                    line.update(transactionId=transaction.transactionId, originalTransactionId=transaction.originalTransactionId,
                                productId=transaction.productId, productType=transaction.rawType, expiresDate=transaction.expiresDate,
                                revoked=transaction.revocationDate is not None, appAccountToken=transaction.appAccountToken)
                if decoded.data and decoded.data.signedRenewalInfo:
                    renewal = verifier.verify_and_decode_renewal_info(decoded.data.signedRenewalInfo)
                    line.update(autoRenewStatus=renewal.rawAutoRenewStatus, autoRenewProductId=renewal.autoRenewProductId, status=decoded.data.rawStatus,
                                priceIncreaseStatus=renewal.rawPriceIncreaseStatus, expirationIntent=renewal.rawExpirationIntent)
            except Exception as error:
                line["refused"] = repr(error)
            with open(out_file, "a") as f:
                f.write(json.dumps(line, sort_keys=True) + "\n")
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    with open(port_file + ".part", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".part", port_file)
    server.serve_forever()


command = sys.argv[1]
base_url, key_dir, kid, issuer, bundle, root_file = sys.argv[2:8]
args = sys.argv[8:]
with open(os.path.join(key_dir, "private.pem"), "rb") as f:
    private_key = f.read()
with open(root_file, "rb") as f:
    root = f.read()
client = AppStoreServerAPIClient(private_key, kid, issuer, bundle, Environment.SANDBOX)
client._base_url = base_url
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle)


def transactions(signed):
    return [fields_of(verifier.verify_and_decode_signed_transaction(item)) for item in signed]


def show(value):
    print(json.dumps(value, default=str, sort_keys=True))


try:
    if command == "transaction":
        answer = client.get_transaction_info(args[0])
        show(fields_of(verifier.verify_and_decode_signed_transaction(answer.signedTransactionInfo)))
    elif command in ("history", "refunds"):
        revision = None
        while True:
            if command == "history":
                request = TransactionHistoryRequest(productTypes=[ProductType(args[1])] if len(args) > 1 else None)
                page = client.get_transaction_history(args[0], revision, request, GetTransactionHistoryVersion.V2)
            else:
                page = client.get_refund_history(args[0], revision)
            show({"hasMore": page.hasMore, "transactions": transactions(page.signedTransactions or [])})
            if not page.hasMore:
                break
            revision = page.revision
    elif command == "statuses":
        answer = client.get_all_subscription_statuses(args[0])
        groups = []
        for group in answer.data or []:
            items = []
            for item in group.lastTransactions or []:
                items.append({"status": item.rawStatus, "originalTransactionId": item.originalTransactionId,
                              "transaction": fields_of(verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)),
                              "renewal": fields_of(verifier.verify_and_decode_renewal_info(item.signedRenewalInfo))})
            groups.append({"group": group.subscriptionGroupIdentifier, "lastTransactions": items})
        show(groups)
    elif command == "extend":
        answer = client.extend_subscription_renewal_date(args[0], ExtendRenewalDateRequest(
            extendByDays=int(args[1]), extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="extend-" + args[0]))
        show({"success": answer.success, "effectiveDate": answer.effectiveDate, "originalTransactionId": answer.originalTransactionId})
    elif command == "consumption":
        client.send_consumption_data(args[0], ConsumptionRequestV1(customerConsented=True, sampleContentProvided=False,
                                                                   deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY))
        show({"sent": True})
    elif command == "app-transaction":
        answer = client.get_app_transaction_info(args[0])
        show(fields_of(verifier.verify_and_decode_app_transaction(answer.signedAppTransactionInfo)))
    elif command == "mass-extend":
        from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
        answer = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=int(args[1]), extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=args[2],
            storefrontCountryCodes=args[3].split(",") if len(args) > 3 else None, productId=args[0]))
        show({"requestIdentifier": answer.requestIdentifier})
    elif command == "mass-status":
        answer = client.get_status_of_subscription_renewal_date_extensions(args[1], args[0])
        show({"requestIdentifier": answer.requestIdentifier, "complete": answer.complete, "completeDate": answer.completeDate,
              "succeededCount": answer.succeededCount, "failedCount": answer.failedCount})
    elif command == "verify-app-transaction":
        show(fields_of(verifier.verify_and_decode_app_transaction(args[0])))
    elif command == "sign-intro":
        from appstoreserverlibrary.jws_signature_creator import IntroductoryOfferEligibilitySignatureCreator
        creator = IntroductoryOfferEligibilitySignatureCreator(private_key, kid, issuer, bundle)
        print(creator.create_signature(args[0], args[1] == "true", args[2]))
    elif command == "sign-promo":
        from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
        creator = PromotionalOfferV2SignatureCreator(private_key, kid, issuer, bundle)
        print(creator.create_signature(args[0], args[1], args[2] if len(args) > 2 else None))
    elif command == "sign-raw":
        import jwt
        from cryptography.hazmat.backends import default_backend
        key = serialization.load_pem_private_key(private_key, password=None, backend=default_backend())
        print(jwt.encode(json.loads(args[0]), key, algorithm="ES256", headers={"kid": kid}))
    elif command == "consumption-v2":
        client.send_consumption_information(args[0], ConsumptionRequest(
            customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus(args[1]),
            consumptionPercentage=int(args[2]) if len(args) > 2 else None,
            refundPreference=RefundPreference(args[3]) if len(args) > 3 else None))
        show({"sent": True})
    elif command == "raw":
        import urllib.error
        import urllib.request
        request = urllib.request.Request(base_url + args[1], data=args[2].encode() if len(args) > 2 else None, method=args[0],
                                         headers={"Authorization": "Bearer " + client._generate_token(), "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                print(answer.status, answer.read().decode())
        except urllib.error.HTTPError as error:
            print(error.code, error.read().decode())
    elif command == "order":
        answer = client.look_up_order_id(args[0])
        show({"status": answer.rawStatus, "transactions": transactions(answer.signedTransactions or [])})
    elif command == "finish":
        client.finish_transaction(args[0])
        show({"finished": True})
    elif command == "set-app-account-token":
        client.set_app_account_token(args[0], UpdateAppAccountTokenRequest(appAccountToken=args[1]))
        show({"set": True})
    elif command == "test-notification":
        token = client.request_test_notification().testNotificationToken
        deadline = time.time() + 30
        while True:
            status = client.get_test_notification_status(token)
            if status.sendAttempts or time.time() > deadline:
                break
            time.sleep(0.2)
        decoded = verifier.verify_and_decode_notification(status.signedPayload)
        show({"token": token, "type": decoded.rawNotificationType, "uuid": decoded.notificationUUID,
              "attempts": [attempt.rawSendAttemptResult for attempt in status.sendAttempts or []]})
    elif command == "notification-history":
        token = None
        seen = []
        while True:
            request = NotificationHistoryRequest(startDate=int(args[0]), endDate=int(args[1]),
                                                 transactionId=args[2] if len(args) > 2 else None)
            page = client.get_notification_history(token, request)
            for item in page.notificationHistory or []:
                decoded = verifier.verify_and_decode_notification(item.signedPayload)
                seen.append({"type": decoded.rawNotificationType, "subtype": decoded.rawSubtype, "uuid": decoded.notificationUUID,
                             "attempts": [attempt.rawSendAttemptResult for attempt in item.sendAttempts or []]})
            if not page.hasMore:
                break
            token = page.paginationToken
        show(seen)
    else:
        print(f"unknown command {command}", file=sys.stderr)
        sys.exit(64)
except APIException as error:
    print(f"error {error.http_status_code} {error.raw_api_error}")
    sys.exit(2)
