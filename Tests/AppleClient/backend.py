"""A developer's backend written against Apple's App Store Server Library, unchanged but for the
base URL and the trusted root.

  backend.py keygen DIR
      makes an API key pair: DIR/private.pem (the backend keeps it), DIR/public.pem (registered
      with the server: --api-key KID=DIR/public.pem)
  backend.py transaction BASE_URL KEY_DIR KID ISSUER BUNDLE ROOT_DER TRANSACTION_ID
      Get Transaction Info, the answer verified with SignedDataVerifier against ROOT_DER; prints
      the decoded transaction as JSON, or `error <HTTP status> <errorCode>` and exits 2."""
import json
import os
import sys

import attr

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
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

base_url, key_dir, kid, issuer, bundle, root_file, transaction_id = sys.argv[2:9]
with open(os.path.join(key_dir, "private.pem"), "rb") as f:
    private_key = f.read()
with open(root_file, "rb") as f:
    root = f.read()
client = AppStoreServerAPIClient(private_key, kid, issuer, bundle, Environment.SANDBOX)
client._base_url = base_url
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle)
try:
    answer = client.get_transaction_info(transaction_id)
except APIException as error:
    print(f"error {error.http_status_code} {error.raw_api_error}")
    sys.exit(2)
decoded = verifier.verify_and_decode_signed_transaction(answer.signedTransactionInfo)
fields = {field.name: getattr(decoded, field.name) for field in attr.fields(type(decoded))}
print(json.dumps({key: value for key, value in fields.items() if value is not None}, default=str, sort_keys=True))
