import CertificateChain
import Foundation
import Testing
import TestSupport

/// The service's signing chain as Apple's tools meet it: OpenSSL's strict checks, and a signed
/// transaction verified by Apple's own Python library against the root the service prints.
@Suite struct SigningChainTests {
    static let python = HangmanBinary.packageRoot.appendingPathComponent(".build/apple-client/bin/python").path
    static let verifier = HangmanBinary.packageRoot.appendingPathComponent("Tests/AppleClient/verify_signed.py").path

    @Test func theChainPassesOpenSSLsStrictChecks() throws {
        let scratch = try TemporaryDirectory()
        let chain = try SigningChain.make(name: "Hangman Packs", now: Int(Date().timeIntervalSince1970))
        let root = try scratch.write("root.pem", chain.root.pem)
        let intermediate = try scratch.write("intermediate.pem", chain.intermediate.pem)
        let leaf = try scratch.write("leaf.pem", chain.leaf.pem)
        let verified = try ExternalProcess.run("/usr/bin/openssl", ["verify", "-x509_strict", "-CAfile", root, "-untrusted", intermediate, leaf])
        #expect(verified.status == 0 && verified.stdout.contains(": OK"), "\(verified.stdout)\(verified.stderr)")
        let text = try ExternalProcess.run("/usr/bin/openssl", ["x509", "-in", leaf, "-noout", "-text"]).stdout
        #expect(text.contains("Version: 3") && text.contains("1.2.840.113635.100.6.11.1") && text.contains("prime256v1"), "\(text)")
        let ca = try ExternalProcess.run("/usr/bin/openssl", ["x509", "-in", intermediate, "-noout", "-text"]).stdout
        #expect(ca.contains("X509v3 Basic Constraints: critical") && ca.contains("CA:TRUE") && ca.contains("1.2.840.113635.100.6.2.1"), "\(ca)")
        // Another root does not vouch for it.
        let other = try scratch.write("other.pem", try SigningChain.make(name: "Other", now: Int(Date().timeIntervalSince1970)).root.pem)
        #expect(try ExternalProcess.run("/usr/bin/openssl", ["verify", "-x509_strict", "-CAfile", other, "-untrusted", intermediate, leaf]).status != 0)
    }

    @Test func aSignedTransactionIsVerifiedByApplesLibrary() throws {
        let scratch = try TemporaryDirectory()
        let now = Int(Date().timeIntervalSince1970)
        let path = scratch.file("chain.pem")
        let chain = try SigningChain.loadOrCreate(at: path, name: "Hangman Packs", now: now)
        // Kept, and read back the same.
        let again = try SigningChain.loadOrCreate(at: path, name: "Hangman Packs", now: now)
        #expect(again.root == chain.root && again.leaf == chain.leaf)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let root = try scratch.write("root.der", chain.root.der)
        let payload = """
            {"transactionId":"1000000000000001","originalTransactionId":"1000000000000001","bundleId":"com.hangmanpacks.game",\
            "productId":"com.hangmanpacks.words.ios","purchaseDate":\(now * 1000),"originalPurchaseDate":\(now * 1000),"quantity":1,\
            "type":"Non-Consumable","inAppOwnershipType":"PURCHASED","signedDate":\(now * 1000),"environment":"Sandbox",\
            "transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":990,"currency":"USD"}
            """
        let jws = try again.jws(Array(payload.utf8))
        let verified = try ExternalProcess.run(Self.python, [Self.verifier, root, "com.hangmanpacks.game"], input: Array(jws.utf8))
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains(#""transactionId": "1000000000000001""#) && verified.stdout.contains(#""type": "Non-Consumable""#), "\(verified.stdout)")
        // Another bundle, a signature changed in one byte, another service's root: refused.
        #expect(try ExternalProcess.run(Self.python, [Self.verifier, root, "com.example.other"], input: Array(jws.utf8)).status == 1)
        var tampered = Array(jws.utf8)
        tampered[tampered.count - 5] = tampered[tampered.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(try ExternalProcess.run(Self.python, [Self.verifier, root, "com.hangmanpacks.game"], input: tampered).status == 1)
        let otherRoot = try scratch.write("other.der", try SigningChain.make(name: "Other", now: now).root.der)
        #expect(try ExternalProcess.run(Self.python, [Self.verifier, otherRoot, "com.hangmanpacks.game"], input: Array(jws.utf8)).status == 1)
    }
}

/// `hangman serve --print-root-certificate`: the root a backend trusts, the same each time.
@Suite struct PrintRootCertificateTests {
    @Test func theRootIsMadeOnceAndPrintedTheSameEachTime() throws {
        let scratch = try TemporaryDirectory()
        let data = scratch.file("data")
        let first = try HangmanBinary.run(["serve", "--data", data, "--print-root-certificate"])
        #expect(first.status == 0 && first.stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n"), "\(first.stdout)\(first.stderr)")
        let second = try HangmanBinary.run(["serve", "--data", data, "--print-root-certificate"])
        #expect(second.stdout == first.stdout)
        let root = try scratch.write("root.pem", first.stdout)
        let subject = try ExternalProcess.run("/usr/bin/openssl", ["x509", "-in", root, "-noout", "-subject"])
        #expect(subject.stdout.contains("Hangman Packs Root CA"), "\(subject.stdout)")
        // Something else in the chain's place is refused, and nothing is printed.
        let other = scratch.file("other")
        try FileManager.default.createDirectory(atPath: other + "/app-store-signing.pem", withIntermediateDirectories: true)
        let refused = try HangmanBinary.run(["serve", "--data", other, "--print-root-certificate"])
        #expect(refused.status == 74 && refused.stdout.isEmpty && refused.stderr.contains("not a regular file"), "\(refused.stderr)")
    }

    /// Every key made here is read by Python's `cryptography` (RFC 5915's 32-byte scalar; about
    /// half of GnuTLS's keys held 33), with its public key beside it as a server is given it.
    @Test func everyKeyMadeHereIsReadByPythonsCryptography() throws {
        var pems: [String] = []
        for _ in 0..<24 {
            let key = try ECKey.generate()
            pems.append(String(decoding: try key.pem, as: UTF8.self) + "\u{1E}" + String(decoding: try key.publicKeyPEM, as: UTF8.self))
        }
        let script = """
            import sys
            from cryptography.hazmat.primitives import serialization
            read = 0
            for pair in sys.stdin.read().split("\\x1e\\n\\x1d"):
                private, public = pair.split("\\x1e")
                key = serialization.load_pem_private_key(private.encode(), None)
                assert key.public_key().public_numbers() == serialization.load_pem_public_key(public.encode()).public_numbers()
                read += 1
            print(read)
            """
        let run = try ExternalProcess.run(SigningChainTests.python, ["-c", script], input: Array(pems.joined(separator: "\u{1E}\n\u{1D}").utf8))
        #expect(run.status == 0 && run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "24", "\(run.stdout)\(run.stderr)")
    }
}
