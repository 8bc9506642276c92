import Device
import PackServiceAPI
import PackServiceClient

/// What `account create` and `account login` share: a home that has a store already is exit
/// status 73 (it cannot be made twice), with the home's words.
enum AccountSetUp {
    static func refusingASecondStore(_ body: () async throws(PlayerError) -> ServiceCredentials) async throws -> ServiceCredentials {
        do {
            return try await body()
        } catch .store(let error) where error.kind == .wrongState {
            throw CommandFailure.cannotCreate(error.message)
        } catch .store(let error) {
            throw CommandFailure(error)
        } catch {
            throw error
        }
    }
}
