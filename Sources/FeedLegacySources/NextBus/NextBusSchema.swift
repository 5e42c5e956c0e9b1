import FeedXML

/// The XSD NextBus responses are validated against, written by this project from the NextBus
/// "Public XML Feed" document (revision 1.22, April 2013: commands agencyList, routeList,
/// routeConfig and schedule) and checked against real saved responses.
///
/// One `body` root holds `agency` elements (agencyList), `route` elements (routeList,
/// routeConfig and schedule share the element, told apart by their attributes and children)
/// or an `Error`. The document says new attributes may appear and must be ignored, so every
/// element accepts unknown attributes; unknown elements are violations.
enum NextBusSchema {
    /// The compiled schema, shared by all readers (compiled once; nil if it does not compile,
    /// which a test rules out).
    static let shared: XMLSchema? = try? XMLSchema(bytes: Array(text.utf8), name: "nextbus.xsd")

    static let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="unqualified">
          <xs:simpleType name="color">
            <xs:restriction base="xs:string"><xs:pattern value="[0-9A-Fa-f]{6}"/></xs:restriction>
          </xs:simpleType>
          <xs:simpleType name="latitude">
            <xs:restriction base="xs:decimal"><xs:minInclusive value="-90"/><xs:maxInclusive value="90"/></xs:restriction>
          </xs:simpleType>
          <xs:simpleType name="longitude">
            <xs:restriction base="xs:decimal"><xs:minInclusive value="-180"/><xs:maxInclusive value="180"/></xs:restriction>
          </xs:simpleType>
          <xs:simpleType name="tag">
            <xs:restriction base="xs:string"><xs:minLength value="1"/></xs:restriction>
          </xs:simpleType>

          <xs:element name="body">
            <xs:complexType>
              <xs:choice minOccurs="0" maxOccurs="unbounded">
                <xs:element name="agency" type="agency"/>
                <xs:element name="route" type="route"/>
                <xs:element name="Error" type="error"/>
              </xs:choice>
              <xs:attribute name="copyright" type="xs:string"/>
              <xs:anyAttribute processContents="skip"/>
            </xs:complexType>
          </xs:element>

          <xs:complexType name="agency">
            <xs:attribute name="tag" type="tag" use="required"/>
            <xs:attribute name="title" type="xs:string" use="required"/>
            <xs:attribute name="shortTitle" type="xs:string"/>
            <xs:attribute name="regionTitle" type="xs:string"/>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>

          <xs:complexType name="error" mixed="true">
            <xs:attribute name="shouldRetry" type="xs:boolean"/>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>

          <!-- routeList: tag, title; routeConfig: also colours, extent, stops, directions, paths;
               schedule: scheduleClass, serviceClass, direction, a header and tr rows. -->
          <xs:complexType name="route">
            <xs:choice minOccurs="0" maxOccurs="unbounded">
              <xs:element name="stop" type="configStop"/>
              <xs:element name="direction" type="direction"/>
              <xs:element name="path" type="path"/>
              <xs:element name="header" type="header"/>
              <xs:element name="tr" type="scheduleRow"/>
            </xs:choice>
            <xs:attribute name="tag" type="tag" use="required"/>
            <xs:attribute name="title" type="xs:string"/>
            <xs:attribute name="shortTitle" type="xs:string"/>
            <xs:attribute name="color" type="color"/>
            <xs:attribute name="oppositeColor" type="color"/>
            <xs:attribute name="latMin" type="latitude"/>
            <xs:attribute name="latMax" type="latitude"/>
            <xs:attribute name="lonMin" type="longitude"/>
            <xs:attribute name="lonMax" type="longitude"/>
            <xs:attribute name="scheduleClass" type="xs:string"/>
            <xs:attribute name="serviceClass" type="xs:string"/>
            <xs:attribute name="direction" type="xs:string"/>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>

          <xs:complexType name="configStop">
            <xs:attribute name="tag" type="tag" use="required"/>
            <xs:attribute name="title" type="xs:string" use="required"/>
            <xs:attribute name="shortTitle" type="xs:string"/>
            <xs:attribute name="lat" type="latitude" use="required"/>
            <xs:attribute name="lon" type="longitude" use="required"/>
            <xs:attribute name="stopId" type="xs:string"/>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>

          <xs:complexType name="direction">
            <xs:sequence>
              <xs:element name="stop" minOccurs="0" maxOccurs="unbounded">
                <xs:complexType>
                  <xs:attribute name="tag" type="tag" use="required"/>
                  <xs:anyAttribute processContents="skip"/>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
            <xs:attribute name="tag" type="tag" use="required"/>
            <xs:attribute name="title" type="xs:string"/>
            <xs:attribute name="name" type="xs:string"/>
            <xs:attribute name="useForUI" type="xs:boolean"/>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>

          <xs:complexType name="path">
            <xs:choice minOccurs="0" maxOccurs="unbounded">
              <xs:element name="tag">
                <xs:complexType>
                  <xs:attribute name="id" type="xs:string" use="required"/>
                  <xs:anyAttribute processContents="skip"/>
                </xs:complexType>
              </xs:element>
              <xs:element name="point">
                <xs:complexType>
                  <xs:attribute name="lat" type="latitude" use="required"/>
                  <xs:attribute name="lon" type="longitude" use="required"/>
                  <xs:anyAttribute processContents="skip"/>
                </xs:complexType>
              </xs:element>
            </xs:choice>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>

          <xs:complexType name="header">
            <xs:sequence>
              <xs:element name="stop" minOccurs="0" maxOccurs="unbounded">
                <xs:complexType>
                  <xs:simpleContent>
                    <xs:extension base="xs:string">
                      <xs:attribute name="tag" type="tag" use="required"/>
                      <xs:anyAttribute processContents="skip"/>
                    </xs:extension>
                  </xs:simpleContent>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
          </xs:complexType>

          <xs:complexType name="scheduleRow">
            <xs:sequence>
              <xs:element name="stop" minOccurs="0" maxOccurs="unbounded">
                <xs:complexType>
                  <xs:simpleContent>
                    <xs:extension base="xs:string">
                      <xs:attribute name="tag" type="tag" use="required"/>
                      <xs:attribute name="epochTime" type="xs:long" use="required"/>
                      <xs:anyAttribute processContents="skip"/>
                    </xs:extension>
                  </xs:simpleContent>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
            <xs:attribute name="blockID" type="xs:string"/>
            <xs:anyAttribute processContents="skip"/>
          </xs:complexType>
        </xs:schema>
        """
}
