/// Reads Apple's binary property lists (`bplist00`), without recursion.
///
/// Every size, offset and count is checked against the buffer before it is used. Containers are
/// walked with an explicit stack; an object already on the path being decoded is a cycle. Strings,
/// data and containers are decoded once and shared, and each reference to them counts its whole
/// expanded size against `PropertyListLimits.maxObjects`, so a DAG that expands exponentially
/// stops early, in time and memory proportional to the file.
///
/// Sets (`0xCn`) are refused as `.unsupported`, like UIDs (`0x8n`), nulls (`0x00`) and the
/// bplist1x-only types: a plist set has no XML form and no place in `PropertyList`.
struct BinaryPropertyListReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: PropertyListLimits
    private let offsetIntSize: Int
    private let objectRefSize: Int
    private let objectCount: Int
    private let topObject: Int
    /// Objects live in `8..<offsetTableStart`; the offset table follows, then the trailer.
    private let offsetTableStart: Int

    /// Per object: 0 unvisited, `onPath` while its container is open, else 1 + its index in
    /// `decoded`. Four bytes a slot keeps the table small for hostile object counts, and in cache
    /// when shared strings send every reference to a random slot.
    private var states: [UInt32]
    private var decoded: [PropertyList] = []
    /// Expanded sizes of decoded containers; every other decoded object counts 1.
    private var containerSizes: [Int: Int] = [:]
    private var decodedValues = 0
    private static let onPath = UInt32.max

    private static let headerSize = 8
    private static let trailerSize = 32

    init(bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) throws(PropertyListError) {
        self.bytes = bytes
        self.limits = limits
        let trailer = bytes.count - Self.trailerSize
        guard trailer >= Self.headerSize + 1 else {
            throw PropertyListError(.malformed, "binary plist: \(bytes.count) bytes is too short to hold a header, an object and the 32-byte trailer")
        }
        offsetIntSize = Int(bytes[trailer + 6])
        objectRefSize = Int(bytes[trailer + 7])
        let objectCount = Self.readUnsigned(bytes, at: trailer + 8, size: 8)
        let topObject = Self.readUnsigned(bytes, at: trailer + 16, size: 8)
        let offsetTableStart = Self.readUnsigned(bytes, at: trailer + 24, size: 8)
        func invalid(_ message: String) -> PropertyListError {
            PropertyListError(.malformed, "binary plist trailer: \(message)")
        }
        guard (1...8).contains(offsetIntSize) else {
            throw invalid("offset size \(offsetIntSize) is not between 1 and 8")
        }
        guard (1...8).contains(objectRefSize) else {
            throw invalid("object reference size \(objectRefSize) is not between 1 and 8")
        }
        guard offsetTableStart >= UInt64(Self.headerSize + 1), offsetTableStart < UInt64(trailer) else {
            throw invalid("offset table at 0x\(String(offsetTableStart, radix: 16)) is outside the file (objects at 0x8, trailer at 0x\(String(trailer, radix: 16)))")
        }
        let tableRoom = UInt64(trailer) - offsetTableStart
        let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetIntSize))
        guard objectCount >= 1, !overflow, tableSize <= tableRoom else {
            throw invalid("\(objectCount) objects of \(offsetIntSize)-byte offsets do not fit in the \(tableRoom) bytes between the offset table and the trailer")
        }
        guard topObject < objectCount else {
            throw invalid("top object \(topObject) is not one of the \(objectCount) objects")
        }
        guard objectCount < UInt64(Self.onPath) else {
            throw PropertyListError(.unsupported, "binary plist trailer: \(objectCount) objects is more than this reader supports")
        }
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTableStart = Int(offsetTableStart)
        self.states = Array(repeating: 0, count: Int(objectCount))
    }

    /// Decodes the top object and everything it references.
    mutating func read() throws(PropertyListError) -> PropertyList {
        var parents: [Frame] = []
        var current: Frame
        switch try start(topObject, depth: 1, parent: nil) {
        case .value(let value, _): return value
        case .container(let frame): current = frame
        }
        while true {
            if current.next < current.count {
                let index = current.next
                current.next += 1
                let valueRef: Int
                if current.isDictionary {
                    let keyRef = try reference(in: current, at: index)
                    let key: String
                    switch try start(keyRef, depth: parents.count + 2, parent: current.object) {
                    case .value(.string(let string), let count):
                        key = string
                        current.expandedCount = current.expandedCount.addingSaturating(count)
                    case .value(let other, _):
                        throw error(.malformed, current.object, "dictionary key \(index) (object \(keyRef)) must be a string; found \(Self.withArticle(other.typeName))")
                    case .container(let frame):
                        states[frame.object] = 0
                        throw error(.malformed, current.object, "dictionary key \(index) (object \(keyRef)) must be a string; found \(frame.isDictionary ? "a dictionary" : "an array")")
                    }
                    if current.entries[key] != nil {
                        throw error(.duplicateKey, current.object, "duplicate dictionary key '\(key.prefix(60))'")
                    }
                    current.pendingKey = key
                    valueRef = try reference(in: current, at: current.count + index)
                } else {
                    valueRef = try reference(in: current, at: index)
                }
                switch try start(valueRef, depth: parents.count + 2, parent: current.object) {
                case .value(let value, let count):
                    current.add(value, expandedCount: count)
                case .container(let frame):
                    parents.append(current)
                    current = frame
                }
            } else {
                let value = current.value
                let count = current.expandedCount
                remember(value, as: current.object)
                containerSizes[current.object] = count
                guard let parent = parents.popLast() else { return value }
                current = parent
                current.add(value, expandedCount: count)
            }
        }
    }

    // MARK: - Objects

    /// An array or dictionary being filled from its references.
    private struct Frame {
        var object: Int
        var isDictionary: Bool
        /// Offset of the first object reference; a dictionary lists its key refs, then value refs.
        var referencesStart: Int
        var count: Int
        var next = 0
        var items: [PropertyList] = []
        var entries: [String: PropertyList] = [:]
        var pendingKey = ""
        var expandedCount = 1

        var value: PropertyList {
            isDictionary ? .dictionary(entries) : .array(items)
        }

        mutating func add(_ value: PropertyList, expandedCount count: Int) {
            if isDictionary {
                entries[pendingKey] = value
            } else {
                items.append(value)
            }
            expandedCount = expandedCount.addingSaturating(count)
        }
    }

    private enum Started {
        case value(PropertyList, expandedCount: Int)
        case container(Frame)
    }

    /// Decodes a scalar object, reuses a decoded one, or opens a container frame.
    private mutating func start(_ object: Int, depth: Int, parent: Int?) throws(PropertyListError) -> Started {
        switch states[object] {
        case 0:
            break
        case Self.onPath:
            if let parent, parent != object {
                throw error(.cyclic, parent, "it refers to object \(object), which contains it (a cycle)")
            }
            throw error(.cyclic, object, "object \(object) contains itself")
        case let slot:
            let value = decoded[Int(slot) - 1]
            let expandedCount: Int
            switch value {
            case .array, .dictionary: expandedCount = containerSizes[object] ?? 1
            default: expandedCount = 1
            }
            try count(expandedCount, object)
            return .value(value, expandedCount: expandedCount)
        }
        let offset = try self.offset(of: object)
        let marker = bytes[offset]
        try count(1, object)
        let value: PropertyList
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .value(.boolean(false), expandedCount: 1)
            case 0x09: return .value(.boolean(true), expandedCount: 1)
            case 0x00: throw error(.unsupported, object, "null objects (marker 0x00) are not supported")
            case 0x0C, 0x0D, 0x0E: throw error(.unsupported, object, "marker 0x\(hex(marker)) (URL/UUID) belongs to bplist1x and is not supported")
            default: throw error(.malformed, object, "unknown object marker 0x\(hex(marker))")
            }
        case 0x1:
            return .value(.integer(try readInteger(object, at: offset)), expandedCount: 1)
        case 0x2:
            return .value(.real(try readReal(object, at: offset)), expandedCount: 1)
        case 0x3:
            guard marker == 0x33 else { throw error(.malformed, object, "date marker 0x\(hex(marker)) is not 0x33") }
            let start = try checkedRange(object, start: offset + 1, count: 1, unit: 8)
            return .value(.date(Double(bitPattern: Self.readUnsigned(bytes, at: start, size: 8))), expandedCount: 1)
        case 0x4:
            let (count, start) = try readLength(object, marker: marker, at: offset)
            let first = try checkedRange(object, start: start, count: count, unit: 1)
            value = .data(Array(bytes[first..<(first + count)]))
        case 0x5:
            let (count, start) = try readLength(object, marker: marker, at: offset)
            let first = try checkedRange(object, start: start, count: count, unit: 1)
            let text = UnsafeBufferPointer(rebasing: bytes[first..<(first + count)])
            if let index = text.firstIndex(where: { $0 >= 0x80 }) {
                throw error(.malformed, object, "ASCII string has the non-ASCII byte 0x\(hex(text[index])) at index \(index)")
            }
            value = .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            let (count, start) = try readLength(object, marker: marker, at: offset)
            let first = try checkedRange(object, start: start, count: count, unit: 2)
            value = .string(try readUTF16(object, at: first, count: count))
        case 0x8:
            throw error(.unsupported, object, "UID objects (keyed-archiver references) are not supported")
        case 0xA, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, start) = try readLength(object, marker: marker, at: offset)
            let references = isDictionary ? count.multipliedReportingOverflow(by: 2) : (partialValue: count, overflow: false)
            guard !references.overflow else { throw error(.malformed, object, "container count \(count) is too large") }
            let first = try checkedRange(object, start: start, count: references.partialValue, unit: objectRefSize)
            guard depth <= limits.maxDepth else {
                throw error(.tooDeep, object, "containers nest deeper than the limit of \(limits.maxDepth)")
            }
            var frame = Frame(object: object, isDictionary: isDictionary, referencesStart: first, count: count)
            let room = max(0, min(count, limits.maxObjects - decodedValues))
            if isDictionary { frame.entries.reserveCapacity(room) } else { frame.items.reserveCapacity(room) }
            states[object] = Self.onPath
            return .container(frame)
        case 0xC:
            throw error(.unsupported, object, "sets (marker 0x\(hex(marker))) are not supported; use an array")
        case 0x7, 0x9, 0xB:
            throw error(.unsupported, object, "marker 0x\(hex(marker)) belongs to bplist1x and is not supported")
        default:
            throw error(.malformed, object, "unknown object marker 0x\(hex(marker))")
        }
        remember(value, as: object)
        return .value(value, expandedCount: 1)
    }

    /// Keeps a decoded string, data or container for later references to the same object.
    private mutating func remember(_ value: PropertyList, as object: Int) {
        decoded.append(value)
        states[object] = UInt32(decoded.count)
    }

    private mutating func count(_ values: Int, _ object: Int) throws(PropertyListError) {
        decodedValues = decodedValues.addingSaturating(values)
        guard decodedValues <= limits.maxObjects else {
            throw error(.tooManyObjects, object, "the property list expands to more than \(limits.maxObjects) values (shared objects count once per reference)")
        }
    }

    /// The validated offset of an object, from the offset table.
    private func offset(of object: Int) throws(PropertyListError) -> Int {
        let entry = offsetTableStart + object * offsetIntSize
        let offset = Self.readUnsigned(bytes, at: entry, size: offsetIntSize)
        guard offset >= UInt64(Self.headerSize), offset < UInt64(offsetTableStart) else {
            throw PropertyListError(.malformed, "binary object \(object): offset 0x\(String(offset, radix: 16)) is outside the object area 0x8..<0x\(hex(offsetTableStart))")
        }
        return Int(offset)
    }

    /// The object number stored in reference slot `index` of a container.
    private func reference(in frame: Frame, at index: Int) throws(PropertyListError) -> Int {
        let reference = Self.readUnsigned(bytes, at: frame.referencesStart + index * objectRefSize, size: objectRefSize)
        guard reference < UInt64(objectCount) else {
            throw error(.malformed, frame.object, "reference \(index) is to object \(reference), but there are only \(objectCount) objects")
        }
        return Int(reference)
    }

    /// Checks that `count` units of `unit` bytes from `start` lie inside the object area.
    private func checkedRange(_ object: Int, start: Int, count: Int, unit: Int) throws(PropertyListError) -> Int {
        let room = offsetTableStart - min(start, offsetTableStart)
        let (size, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, size <= room else {
            throw error(.malformed, object, "\(count) × \(unit) bytes at 0x\(hex(start)) run past the end of the object area (0x\(hex(offsetTableStart)))")
        }
        return start
    }

    /// The element count of a marker: its low nibble, or an integer object after it if 0xF.
    private func readLength(_ object: Int, marker: UInt8, at offset: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        let intMarker = try checkedRange(object, start: offset + 1, count: 1, unit: 1)
        let marker = bytes[intMarker]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw error(.malformed, object, "the count after marker 0x\(hex(bytes[offset])) is not a 1-8 byte integer (found 0x\(hex(marker)))")
        }
        let size = 1 << Int(marker & 0x0F)
        let start = try checkedRange(object, start: intMarker + 1, count: size, unit: 1)
        let count = Self.readUnsigned(bytes, at: start, size: size)
        guard count <= UInt64(offsetTableStart) else {
            throw error(.malformed, object, "count \(count) is larger than the file")
        }
        return (Int(count), start + size)
    }

    private func readInteger(_ object: Int, at offset: Int) throws(PropertyListError) -> Int64 {
        let marker = bytes[offset]
        let power = Int(marker & 0x0F)
        guard power <= 4 else { throw error(.malformed, object, "integer marker 0x\(hex(marker)) has no valid size") }
        let size = 1 << power
        let start = try checkedRange(object, start: offset + 1, count: size, unit: 1)
        switch size {
        case 1, 2, 4:
            return Int64(Self.readUnsigned(bytes, at: start, size: size))
        case 8:
            return Int64(bitPattern: Self.readUnsigned(bytes, at: start, size: 8))
        default:
            let high = Self.readUnsigned(bytes, at: start, size: 8)
            let low = Int64(bitPattern: Self.readUnsigned(bytes, at: start + 8, size: 8))
            guard high == (low < 0 ? UInt64.max : 0) else {
                throw error(.malformed, object, "16-byte integer is out of the 64-bit signed range")
            }
            return low
        }
    }

    private func readReal(_ object: Int, at offset: Int) throws(PropertyListError) -> Double {
        let marker = bytes[offset]
        switch marker {
        case 0x22:
            let start = try checkedRange(object, start: offset + 1, count: 4, unit: 1)
            return Double(Float(bitPattern: UInt32(Self.readUnsigned(bytes, at: start, size: 4))))
        case 0x23:
            let start = try checkedRange(object, start: offset + 1, count: 8, unit: 1)
            return Double(bitPattern: Self.readUnsigned(bytes, at: start, size: 8))
        default:
            throw error(.malformed, object, "real marker 0x\(hex(marker)) is neither 0x22 nor 0x23")
        }
    }

    /// Decodes big-endian UTF-16, refusing unpaired surrogates.
    private func readUTF16(_ object: Int, at start: Int, count: Int) throws(PropertyListError) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(count)
        var expectLow = false
        for index in 0..<count {
            let unit = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])
            let isHigh = (0xD800...0xDBFF).contains(unit)
            let isLow = (0xDC00...0xDFFF).contains(unit)
            guard expectLow == isLow else {
                throw error(.malformed, object, "UTF-16 string has an unpaired surrogate 0x\(hex(unit)) at index \(index)")
            }
            expectLow = isHigh
            units.append(unit)
        }
        guard !expectLow else {
            throw error(.malformed, object, "UTF-16 string ends with an unpaired surrogate")
        }
        return String(decoding: units, as: UTF16.self)
    }

    // MARK: - Helpers

    /// A big-endian unsigned integer of 1...8 bytes; callers have checked the range.
    private static func readUnsigned(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func error(_ kind: PropertyListError.Kind, _ object: Int, _ message: String) -> PropertyListError {
        let entry = offsetTableStart + object * offsetIntSize
        let offset = Self.readUnsigned(bytes, at: entry, size: offsetIntSize)
        return PropertyListError(kind, "binary object \(object) at offset 0x\(String(offset, radix: 16)): \(message)")
    }

    private static func withArticle(_ noun: String) -> String {
        (noun.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + noun
    }

    private func hex<T: BinaryInteger>(_ value: T) -> String {
        String(value, radix: 16)
    }
}

extension Int {
    /// Addition that stops at `Int.max` instead of trapping.
    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
