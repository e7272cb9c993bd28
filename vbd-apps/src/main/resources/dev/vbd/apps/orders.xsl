<?xml version="1.0" encoding="UTF-8"?>
<!-- Report over one region's orders: customers grouped with keys (Muenchian grouping), amounts summed
     by a divide-and-conquer recursive template (XSLT 1.0 cannot sum products), months grouped by a
     computed key, and every order listed with numbered lines. dev.vbd.apps.XalanTransform parses the
     rows back out of the HTML and checks them. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" encoding="UTF-8" indent="no"/>
  <xsl:param name="title" select="'Orders'"/>
  <xsl:key name="by-customer" match="order" use="@customer"/>
  <xsl:key name="by-month" match="order" use="substring(@day, 1, 7)"/>
  <xsl:key name="by-sku" match="line" use="@sku"/>
  <xsl:decimal-format name="money" grouping-separator="," decimal-separator="."/>

  <xsl:template match="/orders">
    <html>
      <head><title><xsl:value-of select="concat($title, ' ', @region)"/></title></head>
      <body>
        <h1>Region <xsl:value-of select="translate(@region, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')"/></h1>
        <table class="customers">
          <xsl:for-each select="order[generate-id() = generate-id(key('by-customer', @customer)[1])]">
            <xsl:sort select="count(key('by-customer', @customer))" data-type="number" order="descending"/>
            <xsl:sort select="@customer"/>
            <xsl:variable name="mine" select="key('by-customer', @customer)"/>
            <xsl:variable name="amount">
              <xsl:call-template name="amount"><xsl:with-param name="lines" select="$mine/line"/></xsl:call-template>
            </xsl:variable>
            <tr class="customer">
              <td class="name"><xsl:value-of select="@customer"/></td>
              <td class="orders"><xsl:value-of select="count($mine)"/></td>
              <td class="lines"><xsl:value-of select="count($mine/line)"/></td>
              <td class="qty"><xsl:value-of select="sum($mine/line/@qty)"/></td>
              <td class="amount"><xsl:value-of select="format-number($amount div 100, '#,##0.00', 'money')"/></td>
            </tr>
          </xsl:for-each>
        </table>
        <table class="months">
          <xsl:for-each select="order[generate-id() = generate-id(key('by-month', substring(@day, 1, 7))[1])]">
            <xsl:sort select="@day"/>
            <tr class="month">
              <td class="month"><xsl:value-of select="substring(@day, 1, 7)"/></td>
              <td class="orders"><xsl:value-of select="count(key('by-month', substring(@day, 1, 7)))"/></td>
            </tr>
          </xsl:for-each>
        </table>
        <p class="skus"><xsl:value-of select="count(//line[generate-id() = generate-id(key('by-sku', @sku)[1])])"/></p>
        <xsl:apply-templates select="order"/>
        <xsl:variable name="total">
          <xsl:call-template name="amount"><xsl:with-param name="lines" select="order/line"/></xsl:call-template>
        </xsl:variable>
        <p class="grand">orders <xsl:value-of select="count(order)"/> amount <xsl:value-of select="format-number($total div 100, '#,##0.00', 'money')"/></p>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="order">
    <div class="order" id="o{@id}">
      <h2>Order <xsl:number format="1"/> (<xsl:value-of select="@id"/>) for <xsl:value-of select="@customer"/>, <xsl:value-of select="@day"/></h2>
      <ol>
        <xsl:for-each select="line">
          <xsl:sort select="@sku"/>
          <li>
            <xsl:number value="position()" format="a"/>
            <xsl:text>. </xsl:text>
            <xsl:value-of select="translate(@sku, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')"/>
            <xsl:text> x </xsl:text>
            <xsl:value-of select="@qty"/>
            <xsl:text> at </xsl:text>
            <xsl:value-of select="format-number(@price div 100, '0.00')"/>
            <xsl:if test="@qty * @price &gt; 50000"> (large)</xsl:if>
          </li>
        </xsl:for-each>
      </ol>
    </div>
  </xsl:template>

  <!-- sum of qty * price over $lines, halving the node-set so that the recursion stays shallow -->
  <xsl:template name="amount">
    <xsl:param name="lines"/>
    <xsl:variable name="n" select="count($lines)"/>
    <xsl:choose>
      <xsl:when test="$n = 0">0</xsl:when>
      <xsl:when test="$n = 1"><xsl:value-of select="$lines/@qty * $lines/@price"/></xsl:when>
      <xsl:otherwise>
        <xsl:variable name="half" select="floor($n div 2)"/>
        <xsl:variable name="a">
          <xsl:call-template name="amount"><xsl:with-param name="lines" select="$lines[position() &lt;= $half]"/></xsl:call-template>
        </xsl:variable>
        <xsl:variable name="b">
          <xsl:call-template name="amount"><xsl:with-param name="lines" select="$lines[position() &gt; $half]"/></xsl:call-template>
        </xsl:variable>
        <xsl:value-of select="$a + $b"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
