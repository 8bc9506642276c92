"""Bearer tokens for the App Store Server API as Apple's library makes them: a new P-256 key (its
public PEM printed first, as a backend registers it), then, a line each, tokens from
AppStoreServerAPIClient for ISSUER and BUNDLE with key id KID (argv 1-3), and variants made with
PyJWT: an expired one, one that lives two hours, one for another bundle, one signed by another key."""
import calendar
import datetime
import sys

import jwt
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

issuer, kid, bundle = sys.argv[1:4]
key = ec.generate_private_key(ec.SECP256R1())
private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
print(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode().strip().replace("\n", "|"))
client = AppStoreServerAPIClient(private_pem, kid, issuer, bundle, Environment.SANDBOX)
print(client._generate_token())


def token(claims, signer=key):
    return jwt.encode(claims, signer, algorithm="ES256", headers={"kid": kid})


now = calendar.timegm(datetime.datetime.now(datetime.timezone.utc).timetuple())
base = {"bid": bundle, "iss": issuer, "aud": "appstoreconnect-v1"}
print(token(dict(base, exp=now - 10)))
print(token(dict(base, exp=now + 7200)))
print(token(dict(base, bid="com.example.other", exp=now + 300)))
print(token(dict(base, exp=now + 300), ec.generate_private_key(ec.SECP256R1())))
