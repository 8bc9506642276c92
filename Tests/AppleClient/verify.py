"""Verifies a receipt the way a game's backend written for Apple's App Store does, with the
itunes-iap client (pinned in requirements.txt), pointed at a production and a sandbox pack server
and otherwise unchanged: production first, the sandbox on 21007 (`env.review`).

    verify.py PRODUCTION_URL SANDBOX_URL RECEIPT_BASE64_FILE [SHARED_SECRET]

Prints one JSON object: the status, the environment, and every purchase read from `in_app` (and
`latest_receipt_info`, `pending_renewal_info` when there are subscriptions) through the client's
own accessors, dates as the client parsed them. A field the client calls undocumented or
unlisted is an error (its warnings are made exceptions), as is any status but 0.
"""
import json
import sys
import warnings

import itunesiap
from itunesiap.request import Request

production, sandbox, receipt_file = sys.argv[1:4]
secret = sys.argv[4] if len(sys.argv) > 4 else None
# Pointed at the pack servers: the only change from a backend that talks to Apple.
Request.PRODUCTION_VALIDATION_URL = production + "/verifyReceipt"
Request.SANDBOX_VALIDATION_URL = sandbox + "/verifyReceipt"
warnings.simplefilter("error")

with open(receipt_file) as f:
    receipt_data = f.read().strip()
try:
    response = itunesiap.verify(receipt_data, password=secret, env=itunesiap.env.review, timeout=20)
except itunesiap.exceptions.InvalidReceipt as error:
    print(json.dumps({"status": error.status}))
    sys.exit(0)


def purchase(item):
    entry = {
        "product_id": item.product_id,
        "transaction_id": item.transaction_id,
        "original_transaction_id": item.original_transaction_id,
        "quantity": item.quantity,
        "purchase_date": item.purchase_date.isoformat(),
        "purchase_date_ms": item["purchase_date_ms"],
        "original_purchase_date": item.original_purchase_date.isoformat(),
    }
    if "expires_date" in item:
        entry["expires_date"] = item.expires_date.isoformat()
        entry["expires_date_ms"] = item["expires_date_ms"]
    if "cancellation_date" in item:
        entry["cancellation_date"] = item.cancellation_date.isoformat()
    if "is_trial_period" in item:
        entry["is_trial_period"] = item.is_trial_period
    return entry


receipt = response.receipt
result = {
    "status": response.status,
    "environment": response["environment"],
    "bundle_id": receipt.bundle_id,
    "receipt_creation_date": receipt.receipt_creation_date.isoformat(),
    "in_app": [purchase(item) for item in receipt.in_app],
}
if "latest_receipt_info" in response:
    result["latest_receipt_info"] = [purchase(item) for item in response.latest_receipt_info]
    result["pending_renewal_info"] = response["pending_renewal_info"]
print(json.dumps(result))
