select
    country,
    date_trunc('month', ordered_at) as month,
    count(*) as orders,
    sum(net_amount) as net_revenue
from {{ ref('fct_orders') }}
where status = 'completed'
group by 1, 2
