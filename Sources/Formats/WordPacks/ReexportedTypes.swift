// The types of other modules that a verification takes or returns (limits, a trusted key, its
// error, digests, formats), re-exported one by one: `import WordPacks` is all a content author's
// code needs, and the rest of those modules (secret keys, archive and plist readers) stays out.
@_exported import struct Archive.ArchiveLimits
@_exported import enum Archive.ArchiveFormat
@_exported import enum PropertyList.PropertyListFormat
@_exported import struct PropertyList.PropertyListLimits
@_exported import struct Signing.SHA256Digest
@_exported import enum Signing.SigningError
@_exported import struct Signing.SigningPublicKey
