"""Verifies a JWS with Apple's own library, as a developer's backend does: SignedDataVerifier with
the service's root (DER, the first argument), the sandbox environment and the bundle (second), the
signed transaction read from standard input. Prints the decoded payload as JSON; exits 1 with the
library's error when it refuses."""
import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

with open(sys.argv[1], "rb") as f:
    root = f.read()
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, sys.argv[2])
try:
    decoded = verifier.verify_and_decode_signed_transaction(sys.stdin.read().strip())
except VerificationException as error:
    print(f"refused: {error.status}", file=sys.stderr)
    sys.exit(1)
print(json.dumps({"transactionId": decoded.transactionId, "productId": decoded.productId, "bundleId": decoded.bundleId,
                  "environment": decoded.rawEnvironment, "type": decoded.rawType}))
