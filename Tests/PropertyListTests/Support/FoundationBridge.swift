import Foundation
import PropertyList

/// Converts between `PropertyList` and the `Any` trees of `PropertyListSerialization`.
enum FoundationBridge {
    struct Unrepresentable: Error {
        var description: String
    }

    static func object(_ value: PropertyList) -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .boolean(let boolean): return boolean
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let bytes): return Data(bytes)
        case .array(let items): return items.map(object)
        case .dictionary(let entries): return entries.mapValues(object)
        }
    }

    static func value(_ object: Any) throws -> PropertyList {
        if type(of: object) == Bool.self, let boolean = object as? Bool { return .boolean(boolean) }
        switch object {
        case let string as String:
            return .string(string)
        case let date as Date:
            return .date(date.timeIntervalSinceReferenceDate)
        case let data as Data:
            return .data([UInt8](data))
        case let array as [Any]:
            return .array(try array.map(value))
        case let dictionary as [AnyHashable: Any]:
            var entries: [String: PropertyList] = [:]
            for (key, item) in dictionary {
                guard let key = key.base as? String else { throw Unrepresentable(description: "non-string key \(key)") }
                entries[key] = try value(item)
            }
            return .dictionary(entries)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "d" || type == "f" { return .real(number.doubleValue) }
            if type == "Q", number.uint64Value > UInt64(Int64.max) {
                throw Unrepresentable(description: "unsigned integer \(number.uint64Value)")
            }
            return .integer(number.int64Value)
        default:
            throw Unrepresentable(description: "\(Swift.type(of: object))")
        }
    }

    static func encode(_ value: PropertyList, format: PropertyListSerialization.PropertyListFormat) throws -> [UInt8] {
        [UInt8](try PropertyListSerialization.data(fromPropertyList: object(value), format: format, options: 0))
    }

    static func decode(_ bytes: [UInt8]) throws -> PropertyList {
        try value(PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil))
    }
}
