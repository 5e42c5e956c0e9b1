import FeedPublish
import Foundation
import Testing

/// The signer against AWS's published examples: the Signature Version 4 test suite
/// (AKIDEXAMPLE, region us-east-1, service `service`, 20150830T123600Z), the signing-key
/// derivation example, and the S3 examples of "Signature Calculations for the Authorization
/// Header" (examplebucket, 20130524T000000Z).
struct SigV4Tests {
    static let suite = SigV4Signer(
        credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")
    static let s3 = SigV4Signer(
        credentials: AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "s3")
    static let empty = SigV4Signer.emptyPayloadHash
    static let suiteHeaders = [("Host", "example.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")]

    @Test func signingKeyDerivation() {
        // "Examples of how to derive a signing key for Signature Version 4": iam, 20120215.
        let signer = SigV4Signer(
            credentials: AWSCredentials(accessKeyID: "x", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1", service: "iam")
        let key = signer.signingKey(date: "20120215").withUnsafeBytes { Data($0) }
        #expect(key.map { String(format: "%02x", $0) }.joined() == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    @Test func getVanilla() {
        let request = SigV4Signer.Request(method: "GET", path: "/", headers: Self.suiteHeaders, payloadHash: Self.empty)
        #expect(
            Self.suite.canonicalRequest(request) == """
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            Self.suite.stringToSign(request, timestamp: "20150830T123600Z") == """
                AWS4-HMAC-SHA256
                20150830T123600Z
                20150830/us-east-1/service/aws4_request
                bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63
                """)
        #expect(
            Self.suite.authorization(request, timestamp: "20150830T123600Z")
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        )
    }

    @Test func suiteExamples() {
        func signature(
            _ method: String, query: [(String, String)] = [], headers: [(String, String)] = SigV4Tests.suiteHeaders, payload: String = SigV4Tests.empty
        ) -> String {
            Self.suite.signature(
                SigV4Signer.Request(method: method, path: "/", query: query, headers: headers, payloadHash: payload), timestamp: "20150830T123600Z")
        }
        // get-vanilla-query-order-key-case: parameters sorted by name.
        #expect(signature("GET", query: [("Param2", "value2"), ("Param1", "value1")]) == "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500")
        // get-vanilla-query-unreserved: unreserved characters stay as they are.
        let unreserved = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        #expect(signature("GET", query: [(unreserved, unreserved)]) == "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197")
        // post-vanilla.
        #expect(signature("POST") == "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b")
        // post-x-www-form-urlencoded: the body's hash and its content type are signed.
        #expect(
            signature(
                "POST", headers: Self.suiteHeaders + [("Content-Type", "application/x-www-form-urlencoded")],
                payload: "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e")
                == "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a")
        // get-header-value-trim: values trimmed, inner runs of spaces collapsed.
        #expect(
            signature("GET", headers: Self.suiteHeaders + [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")])
                == "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736")
        // post-sts-header-before: the session token is signed.
        let token =
            "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=="
        #expect(
            signature("POST", headers: Self.suiteHeaders + [("X-Amz-Security-Token", token)])
                == "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead")
    }

    static let s3Headers = [("Host", "examplebucket.s3.amazonaws.com"), ("x-amz-date", "20130524T000000Z"), ("x-amz-content-sha256", empty)]

    @Test func s3GetObjectWithRange() {
        let request = SigV4Signer.Request(method: "GET", path: "/test.txt", headers: Self.s3Headers + [("Range", "bytes=0-9")], payloadHash: Self.empty)
        #expect(
            Self.s3.canonicalRequest(request) == """
                GET
                /test.txt

                host:examplebucket.s3.amazonaws.com
                range:bytes=0-9
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;range;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(Self.s3.stringToSign(request, timestamp: "20130524T000000Z").hasSuffix("\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"))
        #expect(
            Self.s3.authorization(request, timestamp: "20130524T000000Z")
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
    }

    @Test func s3PutObject() {
        // The key `test$file.text` is encoded once: `/test%24file.text`.
        let payload = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"  // "Welcome to Amazon S3."
        let headers = [
            ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-date", "20130524T000000Z"),
            ("x-amz-storage-class", "REDUCED_REDUNDANCY"), ("x-amz-content-sha256", payload),
        ]
        let request = SigV4Signer.Request(
            method: "PUT", path: "/" + S3Path.encode("test$file.text", encodeSlash: false), headers: headers, payloadHash: payload)
        #expect(request.path == "/test%24file.text")
        #expect(Self.s3.signature(request, timestamp: "20130524T000000Z") == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test func s3BucketRequests() {
        // GET Bucket Lifecycle (`?lifecycle`, an empty value) and GET Bucket (List Objects).
        let lifecycle = SigV4Signer.Request(method: "GET", path: "/", query: [("lifecycle", "")], headers: Self.s3Headers, payloadHash: Self.empty)
        #expect(Self.s3.signature(lifecycle, timestamp: "20130524T000000Z") == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        let list = SigV4Signer.Request(method: "GET", path: "/", query: [("max-keys", "2"), ("prefix", "J")], headers: Self.s3Headers, payloadHash: Self.empty)
        #expect(Self.s3.signature(list, timestamp: "20130524T000000Z") == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test func encoding() {
        #expect(S3Path.encode("a b/ü~*", encodeSlash: false) == "a%20b/%C3%BC~%2A")
        #expect(S3Path.encode("a/b", encodeSlash: true) == "a%2Fb")
    }

    @Test func credentialsNeverDescribeThemselves() {
        let credentials = AWSCredentials(accessKeyID: "AKIDSECRETID", secretAccessKey: "s3cr3t", sessionToken: "t0ken")
        for text in ["\(credentials)", String(describing: credentials), String(reflecting: credentials)] {
            #expect(!text.contains("AKIDSECRETID") && !text.contains("s3cr3t") && !text.contains("t0ken"), "\(text)")
        }
    }
}
